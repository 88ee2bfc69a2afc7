// Gengo in the web client: stones as large discs over the spaces they cover, the overlap tinted
// on the board, why a space is closed said on hover, liberties of the group under the pointer,
// both scores (stones decide by default, area is shown), and captures — friendly fire and
// suicide included — in the log.

import { type NodeDecoration, at } from '../decorations';
import type { GameState, GengoEvent, MapView, RecordedAction } from '../types';
import { type Naming, plural } from '../words';
import { goStones } from './kit';
import type { SystemUi } from './types';

/** Lines for Gengo events. */
export function describeGengo(events: GengoEvent[], names: Naming): string[] {
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

/** A line for a recorded action, when the events are not at hand (a sync's history). */
function describeAction(a: RecordedAction, names: Naming): string {
  const who = names.player(a.player);
  switch (a.type) {
    case 'place':
      return `${who} played ${typeof a.at === 'string' ? a.at : names.label(a.node ?? 0)}`;
    case 'pass':
      return `${who} passed`;
    case 'resign':
      return `${who} resigned`;
    case 'timeout':
      return `${who} ran out of time`;
    default:
      return `${who}: ${a.type}`;
  }
}

/** How much larger than a one-space stone a Gengo stone is drawn: its radius in map units
 *  over half the map's typical distance between neighbours. */
export function stoneScale(state: GameState, map: MapView): number {
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
export function describeSpace(label: string, node: number, s: GameState, names: Naming): string {
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
export function describeStone(node: number, s: GameState): string | null {
  const g = (s.groups ?? []).find((x) => x.stones.includes(node));
  if (!g) return null;
  return `a group of ${plural(g.stones.length, 'stone')} with ${plural(g.liberties.length, 'liberty', 'liberties')}`;
}

/** Stones whose group has one liberty (Gengo's own liberties, two spaces apart). */
function gengoAtari(s: GameState): Set<number> {
  return new Set((s.groups ?? []).filter((g) => g.liberties.length === 1).flatMap((g) => g.stones));
}

export const gengo: SystemUi = {
  name: 'gengo',
  title: 'Gengo',
  historyInState: false,
  logOfSync: (_state, actions, _seq, names) => actions.map((a, i) => ({ seq: i + 1, text: describeAction(a, names) })),
  logOfAction: (action, seq, names) => [{ seq, text: describeAction(action, names) }],
  logOfUpdate: (msg, _before, names) => describeGengo(msg.events as GengoEvent[], names),
  columns: [
    { header: 'Stones', title: 'Stones on the board (with komi for White)', cls: 'num', cell: (p) => (p?.stone_score !== undefined ? String(p.stone_score) : '') },
    { header: 'Area', title: 'Spaces covered by one colour only, and empty areas they enclose', cls: 'num', cell: (p) => (p?.area_score !== undefined ? String(p.area_score) : '') },
    { header: 'Captures', title: 'Opposing stones captured', cls: 'num', cell: (p) => String(p?.prisoners ?? '') },
  ],
  buttons: () => [],
  passTitle: (s) =>
    s.consecutive_passes === 2 ? 'Pass: a third pass in a row ends the game (keyboard: P)' : 'Pass: three passes in a row end the game (keyboard: P)',
  decorate: (s, map, viewer) => {
    const stones = goStones(s.board, map, viewer, () => gengoAtari(s));
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
};
