// The Way of Go and BeSiege in the web client: stones drawn in the colour the pie gave their
// seat, stack heights on the stones, a click on an own stack picks it (click again to lift
// fewer stones) and shows exactly where it can go — moves in green, captures ringed in red —,
// drops by clicking an empty node, attacked nodes tinted in BeSiege (the others are neutral), the pie's choice as
// buttons, captures against each contract in the players table.

import { type NodeDecoration, type StoneDecoration, at } from '../decorations';
import { h } from '../dom';
import { diagram, row, sections } from '../diagrams';
import type { SystemTypes, WayEvent, WayMove, WayState } from '../protocol';
import type { MapView } from '../types';
import { type Naming, plural } from '../words';
import { placedAt } from './kit';
import { type Button, type Recorded, defineSystem } from './types';

/** The stack being lifted: which node, how many of its stones. */
let lift: { node: number; count: number } | null = null;

/** The lift for the picked node (the whole stack when it is newly picked). */
function liftOf(s: WayState, picked: number | null | undefined): { node: number; count: number } | null {
  if (picked === null || picked === undefined) {
    lift = null;
    return null;
  }
  if (!lift || lift.node !== picked) lift = { node: picked, count: s.height?.[picked] ?? 1 };
  return lift;
}

const colourStyle = (c: string | null | undefined) => (c === 'white' ? 1 : 0);
const colourName = (c: string | null | undefined) => (c === 'white' ? 'White' : 'Black');

/** Lines for events. */
export function describeWay(events: WayEvent[], names: Naming): string[] {
  const lines: string[] = [];
  const who = (p: number) => names.player(p);
  for (const e of events) {
    switch (e.event) {
      case 'pie_stone':
        lines.push(`${who(e.player)} placed a ${colourName(e.colour)} pie stone at ${names.label(e.node)}`);
        break;
      case 'side_chosen':
        lines.push(`${who(e.player)} chose ${colourName(e.colour)}; White moves first`);
        break;
      case 'dropped':
        lines.push(`${who(e.player)} dropped a stone at ${names.label(e.node)}`);
        break;
      case 'moved': {
        const what = e.count > 1 ? `${e.count} stones` : 'a stone';
        const how = e.landing === 'stack' ? ' onto its own stack' : e.landing === 'push' ? ', pushing its own piece on' : '';
        lines.push(`${who(e.player)} moved ${what} ${names.label(e.from)}–${names.label(e.to)}${how}`);
        break;
      }
      case 'captured':
        lines.push(`${who(e.player)} captured at ${names.label(e.to)} from ${names.label(e.from)}: ${plural(e.removed, 'stone')} taken, ${e.lost} of its own sacrificed`);
        break;
      case 'contracts_raised':
        lines.push(`Both reached their contracts in one round: raised to ${e.contracts[0]} and ${e.contracts[1]}`);
        break;
      case 'passed':
        lines.push(`${who(e.player)} had no possible turn and passed`);
        break;
      case 'resigned':
        lines.push(`${who(e.player)} resigned`);
        break;
      case 'timed_out':
        lines.push(`${who(e.player)} ran out of time`);
        break;
      case 'game_over':
        lines.push(`Game over: ${e.outcome.ranking.map((p, k) => `${k + 1}. ${who(p)} (${plural(e.outcome.scores[p], 'capture')})`).join(', ')}`);
        break;
      default:
        break;
    }
  }
  return lines;
}


function buttons(s: WayState): Button[] {
  if (s.phase === 'move_after_drop') {
    return [{ id: 'end-turn', label: 'End turn', title: 'End the turn without moving a piece (keyboard: E)', key: 'e', input: { type: 'end_turn' } }];
  }
  return [];
}

function pieCounts(s: WayState): [number, number] {
  const c = s.colour ?? [];
  return [c.filter((x) => x === 'black').length, c.filter((x) => x === 'white').length];
}

/** A diagram for the moving-stone games: destinations (green), captures (red rings), stack
 *  heights and attacked nodes given by label. */
function lineDiagram(
  rows: string[],
  caption: string,
  opts: { reach?: string[]; targets?: string[]; heights?: Record<string, number>; attacked?: string[] } = {},
): HTMLElement {
  return diagram(rows, caption, (map, view) => {
    const node = (l: string) => map.labels.indexOf(l);
    const nodes = new Map<number, NodeDecoration>();
    const stones = new Map<number, StoneDecoration>();
    for (const l of opts.reach ?? []) at(nodes, node(l)).shade = 'reachable';
    for (const l of opts.targets ?? []) at(stones, node(l)).ring = 'target';
    for (const [l, height] of Object.entries(opts.heights ?? {})) if (height > 1) at(stones, node(l)).label = String(height);
    for (const l of opts.attacked ?? []) if (view.board[node(l)] === null) at(nodes, node(l)).tint = 0;
    view.decorations = { nodes, stones };
  });
}

function wayOfGoGuide(): HTMLElement[] {
  return sections([
    ['The goal', 'Before the game each player sets a contract: how many enemy stones they must capture (5 unless the game says otherwise). The first to fulfil it wins. If both get there in the same round (White’s turn and then Black’s), both contracts go up by one and the game goes on.'],
    ['The pie', 'The first player places two Black stones and one White anywhere. The second player then chooses a colour; White moves first. So place them so that you do not mind which side you get.'],
    ['A turn',
      'Either drop a new stone on any empty point; or move one of your stones and then drop; or drop and then move another of your stones; or capture — a capture is the whole turn, with no drop before or after. Ordinary moves never capture.'],
    ['How far a stone moves',
      'A stone moves along a line exactly as many points as its group has liberties — no more, no less — jumping over anything in the way. If the board ends first, it cannot go that way. A stone whose group has no liberties cannot move (and is not removed).',
      row(
        lineDiagram(['.........', '.........', '.........', '.........', '....X....', '.........', '.........', '.........', '.........'], 'Four liberties: exactly four points in each direction.', { reach: ['A5', 'J5', 'E9', 'E1'] }),
        lineDiagram(['.........', '.........', '.........', '.........', '....X....', '....O....', '.........', '.........', '.........'], 'White below takes a liberty: three points, jumping over White.', { reach: ['B5', 'H5', 'E8', 'E2'] }),
      )],
    ['Capturing',
      'A move that ends exactly on an enemy stone captures it — and your moving stone is sacrificed too. Only you score the capture. So stones next to an enemy shorten its reach, and a stone exactly in range of an enemy is in danger.',
      row(lineDiagram(['.........', '.........', '.........', '.........', '....X...O', '.........', '.........', '.........', '.........'], 'E5 reaches J5: both leave the board, Black scores one.', { reach: ['A5', 'E9', 'E1'], targets: ['J5'] }))],
    ['Variants and the end', 'With the push variant, a move onto your own stone pushes it one point further (capturing what it lands on). A player with no possible turn passes; two passes in a row, or the turn limit, end the game, and the player closer to their contract wins.'],
  ]);
}

function besiegeGuide(): HTMLElement[] {
  return sections([
    ['The goal', 'BeSiege is The Way of Go with stacks and without contracts: the game ends when the player to move has no possible turn, and the one with more captures wins. The pie opens the game as in The Way of Go.'],
    ['Drops only on neutral points',
      'A new stone may only be dropped where no stack of either colour could move to. The board shows the attacked points; the others are neutral.',
      row(lineDiagram(['.........', '.........', '.........', '.........', '....X....', '.........', '.........', '.........', '.........'], 'The four points E5 can reach are attacked: no drop there.', { attacked: ['A5', 'J5', 'E9', 'E1'] }))],
    ['Stacks',
      'A stone (or a stack) may move onto your own stones to form a stack. You may lift only the top part of a stack. The range of what you lift is the liberties of its lowest stone, counted at its level: neighbours whose stacks are too low to reach that level are liberties, and stones at the same level connect.',
      row(lineDiagram(['.....', '.....', '.XX..', '.O...', '.....'], 'B3 holds 3, C3 holds 2. The top stone of B3 moves 4, the top two 6, the whole stack 5.', { heights: { B3: 3, C3: 2 } }))],
    ['Captures between stacks', 'Landing on an enemy stack captures: as many stones leave each side as the smaller stack has, and the difference stays. You score the enemy stones removed. A capture is the whole turn.'],
  ]);
}

/** Where an action put a stone: a drop's or a pie stone's node, a move's destination. */
function lastMove(a: Recorded<WayMove>, map: MapView): number | null {
  if (a.type === 'drop' || a.type === 'pie_stone') return placedAt(a, map);
  if (a.type === 'move') {
    if (typeof a.to === 'number') return a.to;
    const i = typeof a.to_at === 'string' ? map.labels.indexOf(a.to_at) : -1;
    return i >= 0 ? i : null;
  }
  return null;
}

function make(name: string, title: string, neutral: boolean) {
  return defineSystem<SystemTypes['way-of-go']>({
    name,
    title,
    defaultMap: 'square:13',
    rulesLine: () => [],
    // Stones move along straight lines: maps without them (honeycomb, random) cannot be played.
    mapNeed: { straightLines: true, example: 'square:13' },
    guide: neutral ? besiegeGuide : wayOfGoGuide,
    lastMove,
    resigned: (s, seat) => s.players[seat]?.resigned === true,
    describe: (events, names) => describeWay(events, names),
    numbered: true,
    columns: [
      {
        header: 'Captures',
        title: neutral ? 'Stones captured: most captures wins' : 'Stones captured, against the contract',
        cls: 'num',
        cell: (p) => (p?.captures === undefined ? '' : p.contract == null ? String(p.captures) : `${p.captures} of ${p.contract}`),
      },
      { header: 'Stones', title: 'Stones on the board (every stone of a stack)', cls: 'num', cell: (p) => String(p?.stone_count ?? '') },
    ],
    standing: (p) => plural(p.captures, 'capture'),
    buttons: (s) => buttons(s),
    passesToEnd: () => 2,
    passTitle: () => 'Pass: only when no turn is possible (keyboard: P)',
    passAllowed: (s) => s.phase === 'playing' && !(s.drops ?? []).length && !(s.moves ?? []).length,
    seatStyle: (s, seat) => colourStyle(s.players[seat]?.colour),
    keepsPick: (s) => s.phase === 'playing' || s.phase === 'move_after_drop',
    decorate: (s, _map, viewer) => {
      const l = liftOf(s, viewer.picked);
      // Stones in the colour the pie gave their seat, stacks with their height.
      const stones = new Map<number, StoneDecoration>();
      s.board.forEach((owner, i) => {
        if (owner === null) return;
        const height = s.height?.[i] ?? 1;
        stones.set(i, { style: colourStyle(s.players[owner]?.colour), label: height > 1 ? String(height) : undefined });
      });
      const nodes = new Map<number, NodeDecoration>();
      if (l) {
        for (const m of s.moves ?? []) {
          if (m.from !== l.node || m.count !== l.count) continue;
          if (m.landing === 'capture' || m.landing === 'push_capture') at(stones, m.to).ring = 'target';
          else at(nodes, m.to).shade = 'reachable';
        }
        at(stones, l.node).ring = 'lifted';
      }
      // BeSiege's attacked nodes, in the attacker's colour (Black 0, White 1, grey for both).
      if (neutral) s.attacked?.forEach((bits, i) => {
        if (s.board[i] == null && bits !== 0) at(nodes, i).tint = bits === 3 ? 'both' : bits === 1 ? 0 : 1;
      });
      return { stones, nodes };
    },
    status: (s, names, mine) => {
      const name = (p: number | null | undefined) => (p == null ? 'nobody' : names.player(p));
      switch (s.phase) {
        case 'pie': {
          const [b, w] = pieCounts(s);
          const next = b < 2 ? `Black (${b + 1} of 2)` : `White (${w + 1} of 1)`;
          return mine ? `The pie: click an empty node for ${next}. Your opponent then chooses a side.` : `${name(s.to_move)} places the pie's stones.`;
        }
        case 'choose_side':
          return mine ? 'Choose your side: Black, or White (who moves first).' : `${name(s.to_move)} chooses a side.`;
        case 'drop_after_move':
          return mine ? 'Now drop a stone: click an empty node.' : `${name(s.to_move)} drops a stone.`;
        case 'move_after_drop':
          return mine
            ? lift
              ? `Move: click a green node (no capture after a drop), or End turn.`
              : 'Move another of your stones (click it), or End turn.'
            : `${name(s.to_move)} may move a stone.`;
        case 'playing': {
          if (!mine) return `${name(s.to_move)} to play.`;
          if (lift) {
            const h = s.height?.[lift.node] ?? 1;
            const range = s.ranges?.[lift.node]?.[lift.count - 1] ?? 0;
            const part = h > 1 ? `${lift.count} of ${h} stones` : 'a stone';
            return `Moving ${part} from ${names.label(lift.node)} (range ${range}): click a green node to move, a red ring to capture${h > 1 ? '; click the stack again to lift fewer' : ''}.`;
          }
          return neutral
            ? 'Your turn: drop on a neutral node (not tinted), or click one of your stacks to move it.'
            : 'Your turn: click an empty node to drop a stone, or one of your stones to move it (a capture is the whole turn).';
        }
        default:
          return null;
      }
    },
    describeStone: (node, s) => {
      const h = s.height?.[node] ?? 1;
      const ranges = s.ranges?.[node] ?? [];
      const r = h > 1 ? `a stack of ${h}; ranges ${ranges.map((x, k) => `top ${k + 1}: ${x}`).join(', ')}` : `range ${ranges[0] ?? 0}`;
      return r;
    },
    describeEmpty: (label, node, s, names) => {
      if (!neutral) return `${label}: empty`;
      const bits = s.attacked?.[node] ?? 0;
      if (bits === 0) return `${label}: neutral — a stone may be dropped here`;
      const by = bits === 3 ? 'both colours' : bits === 1 ? 'Black' : 'White';
      void names;
      return `${label}: attacked by ${by} — no drop here`;
    },
    hasSgf: () => false,
    // The pie's choice, as a dialog over the game for the seat that makes it.
    panel: (s, names, seat, act) => {
      if (s.phase !== 'choose_side' || s.to_move !== seat) return null;
      const [b, w] = pieCounts(s);
      const choose = (colour: string) => act({ type: 'choose_side', colour });
      return h('div', { class: 'pie-dialog', id: 'pie-dialog', role: 'dialog', 'aria-labelledby': 'pie-title' },
        h('h3', { id: 'pie-title' }, 'Choose your side'),
        h('p', {}, `${names.player(1 - seat)} placed the pie: ${plural(b, 'Black stone')} and ${plural(w, 'White stone')}. Take the side you prefer; White makes the first move.`),
        h('div', { class: 'row' },
          h('button', { id: 'side-black', accesskey: 'b', onclick: () => choose('black') }, 'Play Black'),
          h('button', { id: 'side-white', class: 'primary', accesskey: 'w', onclick: () => choose('white') }, 'Play White (move first)')));
    },
    clickInput: (s, node, seat, picked) => {
      const mine = s.board[node] === seat;
      const empty = s.board[node] == null;
      switch (s.phase) {
        case 'pie': {
          if (!empty) return { say: 'The pie goes on empty nodes.' };
          const [b] = pieCounts(s);
          return { input: { type: 'pie_stone', node, colour: b < 2 ? 'black' : 'white' } };
        }
        case 'choose_side':
          return { say: 'Choose a side in the dialog.' };
        case 'drop_after_move':
          if (!(s.drops ?? []).includes(node)) return { say: empty ? 'No drop here: the node is attacked.' : 'Drop on an empty node.' };
          return { input: { type: 'drop', node } };
        case 'playing':
        case 'move_after_drop': {
          const l = liftOf(s, picked);
          if (l && node === l.node) {
            if (l.count > 1) {
              l.count -= 1;
              return { pick: node };
            }
            lift = null;
            return { pick: null };
          }
          if (l) {
            const m = (s.moves ?? []).find((x) => x.from === l.node && x.count === l.count && x.to === node);
            if (m) return { input: { type: 'move', from: l.node, to: node, count: l.count, dir: m.dir } };
          }
          if (mine) {
            if (!(s.moves ?? []).some((x) => x.from === node)) {
              if (s.dropped === node) return { say: 'That stone was just dropped: move another one, or End turn.' };
              return { say: `${s.ranges?.[node]?.[0] === 0 ? 'That group has no liberties' : 'That stone has no move'} now.` };
            }
            lift = null;
            return { pick: node };
          }
          if (l) return { say: 'Not one of its destinations: click a green node or a red ring, or the stack again.' };
          if (!empty) return { say: 'That is an opponent stone: capture it by moving onto it.' };
          if (s.phase === 'move_after_drop') return { say: 'You have dropped this turn: move another stone, or End turn.' };
          if (!(s.drops ?? []).includes(node)) return { say: 'No drop here: the node is attacked (BeSiege drops go on neutral nodes).' };
          return { input: { type: 'drop', node } };
        }
        default:
          return null;
      }
    },
  });
}

export const wayOfGo = make('way-of-go', 'The Way of Go', false);
export const besiege = make('besiege', 'BeSiege', true);
