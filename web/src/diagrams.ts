// Small diagrams for the rules pages, drawn by the real board from rows of text, and the
// sections they sit in. Each rule system writes its own guide with these (src/systems/).

import { type BoardView, createBoard2D } from './board2d';
import type { NodeDecoration } from './decorations';
import { h } from './dom';
import type { MapView } from './types';

/** A small square board from rows of text: `.` empty, `X` Black, `O` White, `R` Red; `x`/`o` an
 *  empty point claimed by Black/White (GoBeyond); `*` after a stone marks the last move. */
export function diagramBoard(rows: string[]): { map: MapView; view: BoardView } {
  const cells = rows.map((r) => r.replace(/\s+/g, '').match(/[.XORxo]\*?/g) ?? []);
  const height = cells.length;
  const width = Math.max(...cells.map((r) => r.length));
  const letters = 'ABCDEFGHJKLMNOPQRST';
  const map: MapView = {
    name: 'diagram', spec: `rect:${width}x${height}`, dimension: 2, nodes: width * height,
    x: [], y: [], z: [], labels: [], edges: [], grid: { width, height, wrap: false }, start_points: [],
  };
  const board: (number | null)[] = [];
  const nodes = new Map<number, NodeDecoration>();
  let lastMove: number | null = null;
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const i = r * width + c;
      map.x.push(c);
      map.y.push(r);
      map.labels.push(`${letters[c]}${height - r}`);
      if (c + 1 < width) map.edges.push([i, i + 1]);
      if (r + 1 < height) map.edges.push([i, i + width]);
      const cell = cells[r][c] ?? '.';
      const stone = { X: 0, O: 1, R: 2 }[cell[0]] ?? null;
      board.push(stone);
      const claim = { x: 0, o: 1 }[cell[0]];
      if (claim !== undefined) nodes.set(i, { claim });
      if (cell.endsWith('*')) lastMove = i;
    }
  }
  const players = board.some((s) => s === 2) ? 3 : 2;
  return { map, view: { players, board, lastMove, mySeat: null, interactive: false, decorations: { nodes, stones: new Map() } } };
}

/** A diagram with its caption; `mark` adds a system's marks to the board's view. */
export function diagram(rows: string[], caption: string, mark?: (map: MapView, view: BoardView) => void): HTMLElement {
  const { map, view } = diagramBoard(rows);
  mark?.(map, view);
  const box = h('div', { class: 'diagram-board' });
  const fig = h('figure', { class: 'diagram' }, box, h('figcaption', {}, caption));
  createBoard2D(box, map, 'drawn', () => {}).render(view);
  return fig;
}

export type Section = [title: string, ...content: (string | HTMLElement)[]];

/** A guide's sections: a title, then paragraphs and diagrams. */
export function sections(list: Section[]): HTMLElement[] {
  return list.map(([title, ...content]) =>
    h('section', { class: 'guide-section' }, h('h2', {}, title),
      ...content.map((c) => (typeof c === 'string' ? h('p', {}, c) : c))),
  );
}

/** Diagrams side by side. */
export const row = (...figs: HTMLElement[]) => h('div', { class: 'diagrams' }, ...figs);
