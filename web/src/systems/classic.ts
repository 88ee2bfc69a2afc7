// Classic Go in the web client: captures and scores, a log line per move, the dead-stone phase
// (a click marks a group dead or alive again, everyone accepts, or play resumes) with the
// territory and the count shown live, the review's words, handicap, and the players' guide.

import { type Decorations, type NodeDecoration, at } from '../decorations';
import { diagram, row, sections } from '../diagrams';
import { h } from '../dom';
import type { ClassicCount, ClassicEvent, ClassicMove, ClassicState, Outcome, SystemTypes } from '../protocol';
import type { MapView } from '../types';
import { type Naming, plural } from '../words';
import { goStones, goWords, placedAt, toggleGroup } from './kit';
import { type Decision, type Recorded, type Viewer, defineSystem } from './types';

/** A line for one action of a classic game. */
export function describeClassic(action: Recorded<ClassicMove>, names: Naming, captured: number): string {
  const who = names.player(action.player);
  switch (action.type) {
    case 'place': {
      const at = typeof action.at === 'string' ? action.at : names.label(action.node ?? 0);
      return captured > 0 ? `${who} played ${at} and captured ${plural(captured, 'stone')}` : `${who} played ${at}`;
    }
    case 'pass':
      return `${who} passed`;
    case 'resign':
      return `${who} resigned`;
    case 'timeout':
      return `${who} ran out of time`;
    case 'dead': {
      const n = action.nodes?.length ?? 0;
      const what = n ? `${plural(n, 'stone')} dead` : 'no stone dead';
      return action.proposed ? `Proposed: ${what}` : `${who} marked ${what}`;
    }
    case 'accept':
      return `${who} accepted the dead stones`;
    case 'resume':
      return `${who} resumed play`;
    default:
      return `${who}: ${(action as { type: string }).type}`;
  }
}

/** The move an event records (null: the event belongs to a move already told, or to none). */
function moveOf(e: ClassicEvent): Recorded<ClassicMove> | null {
  switch (e.event) {
    case 'placed':
      return { player: e.player, type: 'place', node: e.node };
    case 'passed':
      return { player: e.player, type: 'pass' };
    case 'resigned':
      return { player: e.player, type: 'resign' };
    case 'timed_out':
      return { player: e.player, type: 'timeout' };
    case 'dead_marked':
      return { player: e.player, type: 'dead', nodes: e.nodes, proposed: e.proposed };
    case 'accepted':
      // In the dead-stone phase a time-out accepts the marking.
      return { player: e.player, type: e.timeout ? 'timeout' : 'accept' };
    case 'resumed':
      return { player: e.player, type: 'resume' };
    default:
      return null;
  }
}

/** The log's lines for classic Go's events: one per move, with the stones it captured. */
export function describeClassicEvents(events: ClassicEvent[], names: Naming): string[] {
  const lines: string[] = [];
  for (let i = 0; i < events.length; i++) {
    const move = moveOf(events[i]);
    if (!move) continue;
    let captured = 0;
    for (let j = i + 1; j < events.length; j++) {
      const c = events[j];
      if (c.event !== 'captured') break;
      if (c.owner !== move.player) captured += c.nodes.length;
    }
    lines.push(describeClassic(move, names, captured));
  }
  return lines;
}

/** The dead-stone phase: every player marks groups dead (or alive again) by clicking them, and
 *  accepts when the marking is right; any change asks everyone again. */
function deadStones(s: ClassicState, map: MapView): Decision {
  return {
    status: () => 'Play has ended: agree on the dead stones.',
    click: (node, seat) => {
      if (s.board[node] === null || s.board[node] === undefined || s.players[seat]?.resigned) return null;
      return { input: { type: 'dead', nodes: [...toggleGroup(s.dead ?? [], map, s.board, node)] } };
    },
    card: ({ seat, busy, names, act }) => {
      const accepted = new Set(s.accepted ?? []);
      const player = seat !== null && !s.players[seat]?.resigned;
      const out: HTMLElement[] = [
        h('h3', {}, 'Dead stones'),
        h('p', {}, player
          ? 'Click a group to mark it dead (or alive again). Accept when the marking is right; any change asks everyone again. Resume to play on if you disagree.'
          : 'The players are agreeing on dead stones.'),
        h('p', { id: 'dead-list' }, `Marked dead: ${(s.dead ?? []).map((n) => map.labels[n]).join(', ') || 'nothing'}`),
      ];
      // The count as it stands with this marking: it changes as groups are toggled.
      const count = countTable(s, names, 'count-live');
      if (count) out.push(h('h4', {}, 'The count with this marking'), count);
      for (const p of s.players) {
        if (p.resigned) continue;
        out.push(h('div', { class: 'muted' }, `${names.player(p.player)}: ${accepted.has(p.player) ? 'accepted' : 'deciding…'}`));
      }
      if (player && seat !== null && !accepted.has(seat)) {
        out.push(h('button', { id: 'accept-dead', class: 'primary', disabled: busy, onclick: () => act({ type: 'accept' }) }, 'Accept'));
        out.push(h('button', { id: 'resume-play', disabled: busy, onclick: () => act({ type: 'resume' }) }, 'Resume play'));
      }
      return out;
    },
  };
}

const TERMS: [keyof ClassicCount, string][] = [
  ['territory', 'Territory'], ['stones', 'Stones'], ['captures', 'Captures'], ['komi', 'Komi'], ['total', 'Total'],
];

/** The count: a row per player with the terms the scoring rule counts, then the total. */
export function countTable(s: ClassicState, names: Naming, id = 'count'): HTMLElement | null {
  const counted = s.players.filter((p) => p.count);
  if (counted.length === 0) return null;
  const used = TERMS.filter(([k]) => counted.some((p) => p.count?.[k] !== undefined));
  return h('table', { class: 'count', id },
    h('thead', {}, h('tr', {}, h('th', {}, 'Player'), ...used.map(([, t]) => h('th', {}, t)))),
    h('tbody', {}, ...counted.map((p) => h('tr', { 'data-seat': p.player },
      // The colour alone: the players table above names the players.
      h('td', {}, p.color || names.player(p.player)),
      ...used.map(([k]) => h('td', { 'data-term': k }, String(p.count?.[k] ?? '')))))),
  );
}

/** Dead stones crossed and pale; while the position is counted, each territory point marked
 *  with a small square in its owner's colour. */
function decorate(s: ClassicState, map: MapView, viewer: Viewer): Decorations {
  const territory = s.territory ?? [];
  const counted = s.status === 'scoring' || territory.length > 0;
  const dead = counted ? (s.dead ?? []) : undefined;
  const stones = goStones(s.board, map, viewer, dead);
  for (const n of dead ?? []) at(stones, n).faded = true;
  const nodes = new Map<number, NodeDecoration>();
  territory.forEach((owner, i) => {
    if (owner !== null && (s.board[i] ?? null) === null) at(nodes, i).territory = owner;
  });
  const out: Decorations = {};
  if (stones.size) out.stones = stones;
  if (nodes.size) out.nodes = nodes;
  return out;
}

/** The review's words for an action: "White E4", "Black accepts the dead stones". */
function reviewLine(a: Recorded<ClassicMove>, names: Naming): string {
  const who = names.player(a.player);
  switch (a.type) {
    case 'place':
      return `${who} ${typeof a.at === 'string' ? a.at : names.label(a.node ?? 0)}`;
    case 'pass':
      return `${who} passes`;
    case 'resign':
      return `${who} resigns`;
    case 'timeout':
      return `${who} runs out of time`;
    case 'dead': {
      const n = a.nodes?.length ?? 0;
      const what = n ? plural(n, 'dead stone') : 'no dead stones';
      return a.proposed ? `Proposed: ${what}` : `${who} marks ${what}`;
    }
    case 'accept':
      return `${who} accepts the dead stones`;
    case 'resume':
      return `${who} resumes play`;
    default:
      return who;
  }
}

function endWords(o: Outcome): string {
  switch (o.reason) {
    case 'passes':
      return 'Counted after the passes.';
    case 'resignation':
      return 'Won by resignation.';
    case 'time':
      return 'Won on time.';
    default:
      return `Ended by ${o.reason.replace('_', ' ')}.`;
  }
}

function guide(): HTMLElement[] {
  return sections([
    ['The goal', 'Surround more of the board than your opponent. Players take turns placing one stone of their colour on an empty point; stones never move. Black plays first.'],
    ['Liberties and captures',
      'The empty points next to a stone (along the lines) are its liberties. Stones of one colour that touch along the lines form a group and share their liberties.',
      'When a move takes the last liberty of an opponent group, the group is captured and removed.',
      row(
        diagram(['.....', '..X..', '.XO..', '..X..', '.....'], 'White has one liberty left (to the right).'),
        diagram(['.....', '..X..', '.X.X*.', '..X..', '.....'], 'Black plays there: the white stone is captured.'),
      ),
      'You may not play a stone that would have no liberties itself, unless it captures something.'],
    ['Ko',
      'A single stone captured this way cannot be taken back at once: the captured player must play elsewhere first (otherwise the same two moves could repeat for ever).',
      row(diagram(['.XO.', 'X.X*O', '.XO.'], 'Black has just played C2, capturing a stone at B2: White may not take back at B2 at once.'))],
    ['Passing and the end',
      'Instead of placing a stone you may pass. When every player passes in a row, play stops. You then agree on which stones are dead (they could not escape capture): click a group to mark it, and accept when the marking is right. Anyone may resume play instead if they disagree.',
      'The score is your stones on the board plus the empty points you surround (area scoring), or the points you surround plus your captures (territory scoring). White gets komi (usually 6.5 or 7.5 points) for moving second. The most points wins.'],
    ['On other maps', 'The lines of the map are the neighbours: on a hexagonal board a point has six, on a honeycomb three, on a torus the edges wrap around. Everything else is the same.'],
  ]);
}

export const classic = defineSystem<SystemTypes['classic']>({
  name: 'classic',
  title: 'Classic Go',
  defaultMap: 'square:19',
  rulesLine: goWords,
  guide,
  lastMove: (a, map) => (a.type === 'place' ? placedAt(a, map) : null),
  describe: (events, names) => describeClassicEvents(events, names),
  numbered: true,
  columns: [
    { header: 'Captures', cell: (p) => String(p?.prisoners ?? '') },
    // The score only once the position is counted: during play it would be a raw area count.
    {
      header: 'Score',
      title: 'The count with the dead stones removed',
      cell: (p) => (p?.count ? String(p.count.total) : ''),
      shown: (s) => s?.players.some((p) => p.count) ?? false,
    },
  ],
  standing: (p) => (p.count ? `${p.count.total} points` : `captured ${plural(p.prisoners, 'stone')}`),
  buttons: () => [],
  passTitle: () => 'Pass (keyboard: P)',
  passAllowed: (s) => !s.handicap_left,
  status: (s, names, mine) => {
    if (!s.handicap_left) return null;
    const stones = plural(s.handicap_left, 'more handicap stone');
    return mine ? `Place ${stones} anywhere.` : `${names.player(0)} places ${stones}.`;
  },
  decorate,
  decision: (s, map) => (s.status === 'scoring' ? deadStones(s, map) : null),
  countTable,
  moveNumber: (s) => s.move_number,
  reviewLine,
  endWords,
  formChanged: (name, field) => {
    // With a handicap, komi is half a point (White still wins a tie), as on Go servers.
    const komi = field('komi');
    if (name === 'handicap' && komi && Number(field('handicap')?.value) >= 2) komi.value = '0.5';
  },
  resigned: (s, seat) => s.players[seat]?.resigned === true,
  describeEmpty: (label) => label,
  hasSgf: (players) => players === 2,
});
