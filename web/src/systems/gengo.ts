// Gengo in the web client: stones as large discs over the spaces they cover, the overlap tinted
// on the board, why a space is closed said on hover, liberties of the group under the pointer,
// both scores (stones decide by default, area is shown), and captures — friendly fire and
// suicide included — in the log.

import type { BoardView } from '../board2d';
import { type NodeDecoration, type StoneDecoration, at } from '../decorations';
import type { GoEvent, GengoState, SystemTypes } from '../protocol';
import type { MapView } from '../types';
import { type Naming, plural } from '../words';
import { diagram, row, sections } from '../diagrams';
import { goStones, goWords, placedAt } from './kit';
import { defineSystem } from './types';

/** Lines for Gengo events. */
export function describeGengo(events: GoEvent[], names: Naming): string[] {
  const lines: string[] = [];
  const who = (p: number) => names.player(p);
  let played: number | null = null;
  for (const e of events) {
    switch (e.event) {
      case 'placed':
        played = e.node;
        lines.push(`${who(e.player)} played ${names.label(e.node)}`);
        break;
      case 'captured': {
        const n = plural(e.nodes.length, 'stone');
        const at = e.nodes.slice(0, 6).map((x) => names.label(x)).join(', ') + (e.nodes.length > 6 ? ', …' : '');
        const why = played !== null && e.nodes.includes(played) ? 'suicide' : 'friendly fire';
        lines.push(
          e.owner === e.player
            ? `${who(e.player)} lost ${n} of their own (${at}): ${why}`
            : `${who(e.player)} captured ${n} (${at})`,
        );
        break;
      }
      case 'passed':
        lines.push(`${who(e.player)} passed (${e.consecutive} in a row${e.consecutive === 2 ? ': one more ends the game' : ''})`);
        break;
      case 'resigned':
        lines.push(`${who(e.player)} resigned`);
        break;
      case 'timed_out':
        lines.push(`${who(e.player)} ran out of time`);
        break;
      case 'game_over':
        lines.push(`Game over: ${e.outcome.ranking.map((p, k) => `${k + 1}. ${who(p)} (${e.outcome.scores[p]})`).join(', ')}`);
        break;
      default:
        break;
    }
  }
  return lines;
}


/** How much larger than a one-space stone a Gengo stone is drawn: its radius in map units
 *  over half the map's typical distance between neighbours. */
export function stoneScale(state: GengoState, map: MapView): number {
  const r = state.stone_radius;
  if (r === undefined || map.edges.length === 0) return 1;
  const lengths = map.edges
    .map(([a, b]) => Math.hypot(map.x[a] - map.x[b], map.y[a] - map.y[b], (map.z[a] ?? 0) - (map.z[b] ?? 0)))
    .sort((a, b) => a - b);
  const unit = lengths[Math.floor(lengths.length / 2)] || 1;
  // Stones two spaces apart may touch; the 0.96 of a drawn stone keeps a hairline between them.
  return Math.max(0.5, Math.min(4, r / (0.47 * unit)));
}

const REASONS: Record<string, string> = {
  stone: 'holds a stone',
  ko: 'would retake the ko stone at once (play elsewhere first)',
  superko: 'would repeat an earlier position',
  suicide: 'would leave your group without liberties (suicide is off)',
  friendly_fire: 'would kill another of your groups (friendly fire is off)',
  game_over: 'the game is over',
};

/** The hover text of a space: who covers it and why no stone may go there, or its liberties'
 *  neighbourhood. */
export function describeSpace(label: string, node: number, s: GengoState, names: Naming): string {
  const reason = s.blocked?.[node] ?? null;
  const cover = s.cover?.[node] ?? null;
  const owner = s.area?.[node] ?? null;
  const area = owner === null ? '' : ` · counts for ${names.player(owner)} in area`;
  if (reason === 'overlap' || (reason === null && cover !== null)) {
    const by = cover === 2 ? 'both players' : cover === null ? 'a stone' : names.player(cover);
    return `${label}: inside the overlap of ${by}'s stones${reason === 'overlap' ? ' — no stone may go here' : ''}${area}`;
  }
  if (reason !== null) return `${label}: ${REASONS[reason] ?? reason}${area}`;
  const libertyOf = (s.groups ?? []).filter((g) => g.liberties.includes(node)).map((g) => names.player(g.player));
  const touch = libertyOf.length ? ` · a liberty of ${[...new Set(libertyOf)].join(' and ')}` : '';
  return `${label}: open${touch}${area}`;
}

/** The group of the stone on `node` and its liberties (for the hover line). */
export function describeStone(node: number, s: GengoState): string | null {
  const g = (s.groups ?? []).find((x) => x.stones.includes(node));
  if (!g) return null;
  return `a group of ${plural(g.stones.length, 'stone')} with ${plural(g.liberties.length, 'liberty', 'liberties')}`;
}

/** Stones whose group has one liberty (Gengo's own liberties, two spaces apart). */
function gengoAtari(s: GengoState): Set<number> {
  return new Set((s.groups ?? []).filter((g) => g.liberties.length === 1).flatMap((g) => g.stones));
}

/** A diagram's stones drawn at their size, and the 3×3 block each covers tinted. */
function blocks(map: MapView, view: BoardView) {
  const w = map.grid?.width ?? 1;
  const nodes = view.decorations?.nodes ?? new Map<number, NodeDecoration>();
  const stones = view.decorations?.stones ?? new Map<number, StoneDecoration>();
  view.board.forEach((owner, i) => {
    if (owner === null) return;
    stones.set(i, { scale: 1 / 0.47 });
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const x = (i % w) + dx;
      const y = Math.floor(i / w) + dy;
      const j = y * w + x;
      if (x < 0 || x >= w || y < 0 || j >= view.board.length || view.board[j] !== null) continue;
      const d = at(nodes, j);
      d.tint = d.tint === undefined || d.tint === owner ? owner : 'both';
    }
  });
  view.decorations = { ...view.decorations, nodes, stones };
}

function guide(): HTMLElement[] {
  const g = (rows: string[], caption: string) => diagram(rows, caption, blocks);
  return sections([
    ['The goal', 'Go on a finer grid. Black and White take turns placing a stone on an empty space, or passing; stones never move. At the end the player with more stones on the board wins (the area each covers is shown too, and a game may be decided by area).'],
    ['Stones take room',
      'Each stone covers the 3×3 block of spaces around it: no stone of either colour may be played there. So stones are always at least two spaces apart, and a stone is drawn as large as the room it takes.',
      row(g(['.....', '.....', '..X..', '.....', '.....'], 'The tinted spaces around the stone are closed to everyone.'))],
    ['Connections and liberties',
      'Two stones of one colour connect when they are two spaces apart: straight, or a knight’s move. A group’s liberties are the open spaces at that distance from its stones. A lone stone has 12 in the open, 7 on an edge and 4 in a corner.',
      row(
        g(['.......', '.......', '..X....', '.......', '...X...', '.......'], 'A knight’s move apart: one group.'),
        g(['.......', '.......', '..X....', '.......', '....X..', '.......'], 'Two diagonal steps apart: not connected.'),
      )],
    ['Captures',
      'A group with no liberties is captured and removed, freeing the spaces it covered. After a move, the opponent’s groups without liberties go first; then your own.',
      row(
        g(['.....', '.....', '.....', '..O..', 'X....'], 'White C2 covers two of A1’s four liberties and is a third.'),
        g(['.....', 'O*....', '.....', '..O..', '.....'], 'White A4 covers the last one: A1 is captured.'),
      )],
    ['Suicide and friendly fire', 'A stone that leaves its own group with no liberties dies at once (suicide), and a move that takes the last liberty of another of your groups kills that group (friendly fire). Both are allowed unless the game says otherwise.'],
    ['Ko', 'When a move captures exactly one stone and the capturing stone could be captured back alone at once, it may not be: play elsewhere (or pass) first.'],
    ['The end', 'Three passes in a row end the game. Count the stones on the board: more wins, equal is a draw. White may get komi.'],
  ]);
}

export const gengo = defineSystem<SystemTypes['gengo']>({
  name: 'gengo',
  title: 'Gengo',
  defaultMap: 'square:9',
  rulesLine: goWords,
  guide,
  lastMove: (a, map) => (a.type === 'place' ? placedAt(a, map) : null),
  resigned: (s, seat) => s.players[seat]?.resigned === true,
  describe: (events, names) => describeGengo(events, names),
  numbered: true,
  columns: [
    { header: 'Stones', title: 'Stones on the board (with komi for White)', cls: 'num', cell: (p) => (p?.stone_score !== undefined ? String(p.stone_score) : '') },
    { header: 'Area', title: 'Spaces covered by one colour only, and empty areas they enclose', cls: 'num', cell: (p) => (p?.area_score !== undefined ? String(p.area_score) : '') },
    { header: 'Captures', title: 'Opposing stones captured', cls: 'num', cell: (p) => String(p?.prisoners ?? '') },
  ],
  standing: (p) => `captured ${plural(p.prisoners, 'stone')}`,
  buttons: () => [],
  passesToEnd: () => 3,
  passTitle: (s) =>
    s.consecutive_passes === 2 ? 'Pass: a third pass in a row ends the game (keyboard: P)' : 'Pass: three passes in a row end the game (keyboard: P)',
  decorate: (s, map, viewer) => {
    const stones = goStones(s.board, map, viewer, undefined, () => gengoAtari(s));
    const scale = stoneScale(s, map);
    s.board.forEach((owner, i) => {
      if (owner !== null) at(stones, i).scale = scale;
    });
    const nodes = new Map<number, NodeDecoration>();
    s.cover?.forEach((c, i) => {
      if (c !== null && s.board[i] === null) at(nodes, i).tint = c === 2 ? 'both' : c;
    });
    // Area is drawn at the end only: during play it would hide the overlap it comes from.
    if (s.outcome) s.area?.forEach((a, i) => {
      if (a !== null) at(nodes, i).claim = a;
    });
    const g = viewer.hover === null ? undefined : (s.groups ?? []).find((x) => x.stones.includes(viewer.hover as number));
    return { stones, nodes, hover: g ? new Set(g.liberties) : undefined };
  },
  describeEmpty: (label, node, s, names) => describeSpace(label, node, s, names),
  describeStone: (node, s) => describeStone(node, s),
  hoverMarks: true,
  hasSgf: () => false,
});
