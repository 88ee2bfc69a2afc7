// Chooses the board for a map: SVG for flat maps, three.js (loaded on demand) for maps in space,
// with a flat unrolled view for wrapped grids such as the torus.

import { type Board, type BoardView, createBoard2D } from './board2d';
import { attachKeyboard } from './board_keys';
import { coordinateRulers } from './rulers';
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
  options: {
    zoom?: boolean;
    onView?: (kind: ViewKind) => void;
    /** Play from the keyboard (arrow keys, Enter), each point described in words. */
    keyboard?: { describe(node: number): string };
  } = {},
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
  // Coordinates stay in view while a zoomed board scrolls (the lobby's preview does not zoom).
  const rulers = options.zoom !== false ? coordinateRulers(container, holder) : null;
  const zoom = flatZoom(holder, () => rulers?.update());
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
  const keys = options.keyboard
    ? attachKeyboard(holder, map, {
        position: (n) => nodePosition(holder, board, n),
        describe: (n) => options.keyboard?.describe(n) ?? String(n),
        show: (n) => {
          holder.querySelectorAll('.hit.kb-cursor').forEach((e) => e.classList.remove('kb-cursor'));
          if (n !== null) {
            holder.querySelector(`.hit[data-node="${n}"]`)?.classList.add('kb-cursor');
            // A point on the far side of a body, or out of a zoomed board's view, comes into it.
            if (nodePosition(holder, board, n) === null) board?.focus?.(n);
            holder.querySelector(`.hit[data-node="${n}"]`)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
          }
          onHover(n);
        },
        play: onPick,
        start: () => lastView?.lastMove ?? middleNode(holder, board, map.nodes),
      })
    : null;
  if (keys) holder.after(keys.region);
  return {
    render(view) {
      lastView = view;
      board?.render(view);
      keys?.refresh();
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
      keys?.region.remove();
      rulers?.remove();
      switcher?.remove();
    },
  };
}

/** Where a node is on the page: its hit area on a flat board, the projection in 3-D. */
function nodePosition(holder: HTMLElement, board: Board | null, node: number): { x: number; y: number } | null {
  if (board?.screenPosition) return board.screenPosition(node);
  const hit = holder.querySelector(`.hit[data-node="${node}"]`);
  if (!hit) return null;
  const r = hit.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** The node nearest the middle of the board as drawn. */
function middleNode(holder: HTMLElement, board: Board | null, nodes: number): number {
  const box = holder.getBoundingClientRect();
  const centre = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  let best = 0;
  let bestDistance = Infinity;
  for (let n = 0; n < nodes; n++) {
    const p = nodePosition(holder, board, n);
    const d = p ? Math.hypot(p.x - centre.x, p.y - centre.y) : Infinity;
    if (d < bestDistance) [best, bestDistance] = [n, d];
  }
  return best;
}

/** Zoom levels of flat boards: on a phone a 19×19 board has 17-pixel points; at 2× they are
 *  big enough to tap, and the board scrolls under a finger. */
const ZOOMS = [1, 1.5, 2, 3, 4];

/** Zoom for a flat board: buttons, and pinching with two fingers. The board is drawn larger
 *  inside its holder, which scrolls. */
export function flatZoom(holder: HTMLElement, changed: () => void = () => {}): { controls: HTMLElement; set(z: number): void } {
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
    changed();
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
