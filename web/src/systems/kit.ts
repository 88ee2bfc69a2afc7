// What several systems share: crossed and atari stones on a Go board, a group toggled by a
// click, a Clean-Up, the last move of a placement, and the rules line's Go words.

import { type Decorations, type StoneDecoration, at } from '../decorations';
import { h } from '../dom';
import { component, groupsWithLiberties } from '../graph';
import type { RulesSpec } from '../protocol';
import type { MapView } from '../types';
import type { Naming } from '../words';
import type { Decision, Input, Viewer } from './types';

/** The stones' marks of a Go board: `crossed` (default: the viewer's pick) crossed out, and, if
 *  the viewer asks, every group in atari ringed (default: one liberty on the map's graph). */
export function goStones(
  board: (number | null)[],
  map: MapView,
  viewer: Viewer,
  crossed: Iterable<number> = viewer.picked !== null ? [viewer.picked] : [],
  atari = graphAtari,
): Map<number, StoneDecoration> {
  const stones = new Map<number, StoneDecoration>();
  for (const n of crossed) at(stones, n).crossed = true;
  if (viewer.atari) for (const n of atari(map, board)) at(stones, n).ring = 'atari';
  return stones;
}

/** Stones whose group has one liberty along the map's edges. */
export function graphAtari(map: MapView, board: (number | null)[]): Set<number> {
  return groupsWithLiberties(map, board, 1);
}

/** Decorations with nothing but `stones`, left out when empty. */
export function onlyStones(stones: Map<number, StoneDecoration>): Decorations {
  return stones.size ? { stones } : {};
}

/** `set` with the whole group on `node` added, or removed if `node` is in it already: marking
 *  part of a group is rarely meant. */
export function toggleGroup(set: Iterable<number>, map: MapView, board: (number | null)[], node: number): Set<number> {
  const out = new Set(set);
  const on = !out.has(node);
  for (const s of component(map, board, node).nodes) on ? out.add(s) : out.delete(s);
  return out;
}

/** A placement's node: by number, or by label. */
export function placedAt(action: { node?: number | null; at?: unknown }, map: MapView): number | null {
  if (typeof action.node === 'number') return action.node;
  if (typeof action.at === 'string') {
    const i = map.labels.indexOf(action.at);
    return i >= 0 ? i : null;
  }
  return null;
}

/** The rules line's words for komi, scoring and the ko rule, where the rules have them. */
export function goWords(r: RulesSpec): string[] {
  const parts: string[] = [];
  if (typeof r.komi === 'number') parts.push(`komi ${r.komi}`);
  if (typeof r.scoring === 'string') parts.push(`${r.scoring} scoring`);
  if (typeof r.ko === 'string') parts.push(`${String(r.ko).replace(/_/g, ' ')} ko`);
  return parts;
}

/** How a Clean-Up reads and what it sends (GoBeyond surrenders, Tribal Go names dead stones). */
export interface CleanUpWords {
  intro: string;
  /** What each seat has chosen, once it has (null: still choosing, or not shown). */
  chosen(seat: number): string | null;
  input(nodes: number[]): Input;
  submit(count: number): string;
}

/** A Clean-Up: the seats in `waiting` each choose some of their own groups, by clicking them,
 *  and submit the choice (possibly nothing). */
export function cleanUp(board: (number | null)[], map: MapView, seats: number, waiting: number[], words: CleanUpWords): Decision {
  return {
    status: (names: Naming) => `Clean-Up: waiting for ${waiting.map((p) => names.player(p)).join(', ')}.`,
    click: (node, seat, selected) => {
      if (!waiting.includes(seat) || board[node] !== seat) return null;
      return { selected: toggleGroup(selected, map, board, node) };
    },
    card: ({ seat, selected, busy, names, act }) => {
      const mine = seat !== null && waiting.includes(seat);
      const out: HTMLElement[] = [h('h3', {}, 'Clean-Up'), h('p', {}, mine ? words.intro : 'Waiting for the other players to choose.')];
      for (let p = 0; p < seats; p++) {
        const choice = words.chosen(p) ?? (waiting.includes(p) ? 'choosing…' : 'done');
        out.push(h('div', { class: 'muted' }, `${names.player(p)}: `, choice));
      }
      if (mine) {
        out.push(h('p', {}, `Selected: ${[...selected].map((n) => map.labels[n]).join(', ') || 'nothing'}`));
        out.push(h('button', { id: 'surrender', class: 'primary', disabled: busy, onclick: () => act(words.input([...selected]), true) }, words.submit(selected.size)));
      }
      return out;
    },
  };
}
