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
  destroy(): void;
}

export async function mountBoard(
  container: HTMLElement,
  map: MapView,
  onPick: (node: number) => void,
  onHover: (node: number | null) => void,
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
    switcher?.querySelectorAll('button').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.view === k)));
    if (lastView) board.render(lastView);
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
    destroy() {
      board?.destroy();
      holder.remove();
      switcher?.remove();
    },
  };
}
