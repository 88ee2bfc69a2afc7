// Playing with the keyboard on any map: a cursor on the board moves with the arrow keys to the
// neighbour lying most nearly that way on screen (any graph: grids, hexes, the torus, a sphere),
// Enter or Space plays there, and a live region says where the cursor is and what stands there,
// for screen readers and for sighted keyboard players alike.

import { h } from './dom';
import type { MapView } from './types';

export type Point = { x: number; y: number };

/** Screen directions of the arrow keys (y grows downwards). */
const DIRECTIONS: Record<string, Point> = {
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
};

/** Each node's neighbours, in increasing order (a fixed order for maps drawn without positions). */
export function neighbourLists(map: Pick<MapView, 'nodes' | 'edges'>): number[][] {
  const lists: number[][] = Array.from({ length: map.nodes }, () => []);
  for (const [a, b] of map.edges) {
    if (a === b || !lists[a] || !lists[b]) continue;
    lists[a].push(b);
    lists[b].push(a);
  }
  for (const l of lists) l.sort((p, q) => p - q);
  return lists;
}

/**
 * Where the cursor goes from `from` for an arrow `key`: the neighbour whose direction on screen
 * is within 60° of the key's and nearest; `from` when none is (the edge of a flat board). Where
 * positions are unknown (the far side of a sphere), the neighbours in their fixed order: Right and
 * Down the next, Left and Up the previous.
 */
export function stepCursor(from: number, key: string, neighbours: number[][], position: (n: number) => Point | null): number {
  const d = DIRECTIONS[key];
  const around = neighbours[from] ?? [];
  if (!d || around.length === 0) return from;
  const here = position(from);
  if (here) {
    let best: { node: number; distance: number } | null = null;
    for (const n of around) {
      const p = position(n);
      if (!p) continue;
      const dx = p.x - here.x;
      const dy = p.y - here.y;
      const distance = Math.hypot(dx, dy);
      if (distance === 0 || (dx * d.x + dy * d.y) / distance < 0.5) continue;
      if (!best || distance < best.distance) best = { node: n, distance };
    }
    if (best) return best.node;
    if (around.every((n) => position(n) !== null)) return from;
  }
  const forward = key === 'ArrowRight' || key === 'ArrowDown';
  const bigger = around.find((n) => n > from);
  const smaller = [...around].reverse().find((n) => n < from);
  return forward ? (bigger ?? around[0]) : (smaller ?? around[around.length - 1]);
}

export interface KeyboardBoard {
  /** Where a node is on screen now (`null`: not visible). */
  position(node: number): Point | null;
  /** The node's name and what stands on it, in words. */
  describe(node: number): string;
  /** Shows the cursor on the board (and turns a board in space to it). */
  show(node: number | null): void;
  play(node: number): void;
  /** Where the cursor starts: the last move, else the middle of the board. */
  start(): number;
}

/** Makes `holder` focusable and playable from the keyboard: returns the live region, and
 *  `refresh` to say again what is under the cursor once the board has changed (a stone played). */
export function attachKeyboard(holder: HTMLElement, map: MapView, board: KeyboardBoard): { region: HTMLElement; refresh(): void } {
  const neighbours = neighbourLists(map);
  // For screen readers: sighted players see the point described on the page (the hover line).
  const said = h('p', { class: 'sr-only', id: 'board-cursor', 'aria-live': 'polite' });
  holder.tabIndex = 0;
  holder.setAttribute('role', 'application');
  holder.setAttribute('aria-label', 'Board: arrow keys move between neighbouring points, Enter plays');
  let cursor: number | null = null;
  const move = (node: number) => {
    cursor = node;
    board.show(node);
    said.textContent = board.describe(node);
  };
  // A click focuses the board too: then the pointer is the player's cursor, and the keyboard's
  // (jumping to the last move) would overwrite what the page says of the point under it.
  let pointing = false;
  holder.addEventListener('pointerdown', () => (pointing = true));
  // Focus comes with the press; a press on a board already focused brings none.
  for (const end of ['pointerup', 'pointercancel']) holder.addEventListener(end, () => (pointing = false));
  holder.addEventListener('focus', () => {
    if (!pointing) move(cursor ?? board.start());
    pointing = false;
  });
  holder.addEventListener('blur', () => {
    board.show(null);
    said.textContent = '';
  });
  holder.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key in DIRECTIONS) {
      e.preventDefault();
      e.stopPropagation();
      move(stepCursor(cursor ?? board.start(), e.key, neighbours, board.position));
    } else if ((e.key === 'Enter' || e.key === ' ') && cursor !== null) {
      e.preventDefault();
      e.stopPropagation();
      board.play(cursor);
    }
  });
  const refresh = () => {
    if (cursor !== null && document.activeElement === holder) said.textContent = board.describe(cursor);
  };
  return { region: said, refresh };
}
