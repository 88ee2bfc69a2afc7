// Chooses the board for a map: SVG for flat maps, three.js (loaded on demand) for maps in space,
// with a flat unrolled view for wrapped grids such as the torus.

import { type Board, type BoardView, createBoard2D } from './board2d';
import { h } from './dom';
import { views } from './layout';
import type { MapView } from './types';

export type ViewKind = 'flat' | 'wrapped' | '3d';

export interface MountedBoard {
  render(view: BoardView): void;
  kind(): ViewKind;
  /** Turns a 3-D view to the node; false when the view cannot turn (flat boards). */
  focus(node: number): boolean;
  /** Back to a 3-D view's first angle and zoom; false when there is none (flat boards). */
  resetView(): boolean;
  destroy(): void;
}

export async function mountBoard(
  container: HTMLElement,
  map: MapView,
  onPick: (node: number) => void,
  onHover: (node: number | null) => void,
  options: { zoom?: boolean; onView?: (kind: ViewKind) => void } = {},
): Promise<MountedBoard> {
  const v = views(map);
  const kinds: ViewKind[] = v.spatial ? (v.wrapped ? ['3d', 'wrapped'] : ['3d']) : ['flat'];
  let kind = kinds[0];
  let board: Board | null = null;
  let lastView: BoardView | null = null;
  const holder = h('div', { class: 'board-holder' });
  const switcher =
    kinds.length > 1
      ? h(
          'div',
          { class: 'view-switch', role: 'group', 'aria-label': 'Board view' },
          ...kinds.map((k) =>
            h('button', { type: 'button', 'data-view': k, onclick: () => void show(k) }, k === '3d' ? '3-D' : 'Flat (wrapped)'),
          ),
        )
      : null;
  container.append(holder);
  if (switcher) container.append(switcher);
  const zoom = flatZoom(holder);
  // Zoom where points get small: big maps, and any map on a narrow screen (CSS).
  zoom.controls.classList.toggle('big', map.nodes > 150);
  if (options.zoom !== false) container.append(zoom.controls);

  async function show(k: ViewKind) {
    kind = k;
    board?.destroy();
    board = null;
    if (k === '3d') {
      const { createBoard3D } = await import('./board3d');
      board = createBoard3D(holder, map, onPick, onHover);
    } else {
      board = createBoard2D(holder, map, k === 'wrapped' ? 'wrapped' : 'drawn', onPick, onHover);
    }
    holder.dataset.view = k;
    zoom.controls.hidden = k === '3d';
    zoom.set(1);
    switcher?.querySelectorAll('button').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.view === k)));
    if (lastView) board.render(lastView);
    options.onView?.(k);
  }
  await show(kind);
  return {
    render(view) {
      lastView = view;
      board?.render(view);
    },
    kind: () => kind,
    focus(node) {
      if (!board?.focus) return false;
      board.focus(node);
      return true;
    },
    resetView() {
      if (!board?.resetView) return false;
      board.resetView();
      return true;
    },
    destroy() {
      board?.destroy();
      holder.remove();
      switcher?.remove();
    },
  };
}

/** Zoom levels of flat boards: on a phone a 19×19 board has 17-pixel points; at 2× they are
 *  big enough to tap, and the board scrolls under a finger. */
const ZOOMS = [1, 1.5, 2, 3, 4];

/** Zoom for a flat board: buttons, and pinching with two fingers. The board is drawn larger
 *  inside its holder, which scrolls. */
export function flatZoom(holder: HTMLElement): { controls: HTMLElement; set(z: number): void } {
  let level = 1;
  const set = (z: number, focusX = 0.5, focusY = 0.5) => {
    const before = level;
    level = Math.max(ZOOMS[0], Math.min(ZOOMS[ZOOMS.length - 1], z));
    holder.style.setProperty('--zoom', String(level));
    holder.classList.toggle('zoomed', level > 1);
    // Keep the point under the fingers (or the centre) where it was.
    const w = holder.clientWidth;
    const hgt = holder.clientHeight;
    const x = (holder.scrollLeft + focusX * w) * (level / before);
    const y = (holder.scrollTop + focusY * hgt) * (level / before);
    holder.scrollLeft = x - focusX * w;
    holder.scrollTop = y - focusY * hgt;
    label.textContent = `${Math.round(level * 100)} %`;
  };
  const step = (dir: 1 | -1) => {
    const i = ZOOMS.findIndex((z) => z >= level - 1e-9);
    set(ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, (i < 0 ? 0 : i) + dir))]);
  };
  const label = h('span', { class: 'zoom-level', id: 'zoom-level' }, '100 %');
  const controls = h('div', { class: 'zoom-controls', role: 'group', 'aria-label': 'Zoom' },
    h('button', { type: 'button', id: 'zoom-out', 'aria-label': 'Zoom out', onclick: () => step(-1) }, '−'),
    label,
    h('button', { type: 'button', id: 'zoom-in', 'aria-label': 'Zoom in', onclick: () => step(1) }, '+'),
    h('button', { type: 'button', id: 'zoom-fit', onclick: () => set(1) }, 'Fit'),
  );
  // Pinch: two touches apart or together.
  const touches = new Map<number, { x: number; y: number }>();
  let pinch: { distance: number; level: number } | null = null;
  const spread = () => {
    const [a, b] = [...touches.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  holder.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'touch') return;
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (touches.size === 2) pinch = { distance: spread(), level };
  });
  holder.addEventListener('pointermove', (e) => {
    if (!touches.has(e.pointerId)) return;
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch && touches.size === 2 && pinch.distance > 0) {
      const rect = holder.getBoundingClientRect();
      const [a, b] = [...touches.values()];
      set(pinch.level * (spread() / pinch.distance), ((a.x + b.x) / 2 - rect.left) / rect.width, ((a.y + b.y) / 2 - rect.top) / rect.height);
    }
  });
  const end = (e: PointerEvent) => {
    touches.delete(e.pointerId);
    if (touches.size < 2) pinch = null;
  };
  holder.addEventListener('pointerup', end);
  holder.addEventListener('pointercancel', end);
  return { controls, set: (z) => set(z) };
}
