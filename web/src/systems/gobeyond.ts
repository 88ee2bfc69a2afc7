// GoBeyond in the web client: PlayPoints and claims, Skip, claimed, disputed and reserved
// nodes, Clean-Up (surrender doomed groups), the event log in plain words ("Blue occupied F5 and
// captured 3 stones: +30") and the players' guide.

import { spanText } from '../time';
import { type NodeDecoration, at } from '../decorations';
import type { GoBeyondEvent, GoBeyondState, SystemTypes } from '../protocol';
import type { MapView } from '../types';
import { type Naming, plural, signed } from '../words';
import { diagram, row, sections } from '../diagrams';
import { cleanUp, goStones, placedAt } from './kit';
import { defineSystem } from './types';

/** A turn that has begun (its income earned) and whose action has not been logged yet: it spans
 *  updates, since a turn starts at the end of the action before it. */
export interface GoBeyondCarry {
  turn?: { number: number; player: number; income: number; claimed: number } | null;
}

/**
 * Lines for one GoBeyond action's events. A turn reads as one line numbered as the game counts
 * turns: the action, its effects, and the income it began with ("7. Blue occupied F5 (−10) ·
 * income +4"), so the log's numbers are the turns' and income needs no line of its own. `carry`
 * holds a turn begun in an earlier update.
 */
export function describeGoBeyond(events: GoBeyondEvent[], names: Naming, carry: GoBeyondCarry = {}): string[] {
  const lines: string[] = [];
  /** The line of the player whose turn it is: numbered, with the turn's income. */
  const push = (line: string, player?: number) => {
    const turn = carry.turn;
    if (turn && player === turn.player) {
      lines.push(`${turn.number}. ${line}${turn.income ? ` · income ${signed(turn.income)}` : ''}`);
      carry.turn = null;
    } else lines.push(line);
  };
  /** A begun turn that will have no line of its own (the game ended): its income alone. */
  const flush = () => {
    const turn = carry.turn;
    if (turn?.income) lines.push(`${names.player(turn.player)} earned ${signed(turn.income)} from ${plural(turn.claimed, 'claimed node')}`);
    carry.turn = null;
  };
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    switch (e.event) {
      case 'turn_started':
        flush();
        carry.turn = { number: e.turn, player: e.player, income: 0, claimed: 0 };
        break;
      case 'income':
        if (carry.turn && carry.turn.player === e.player) {
          carry.turn.income += e.points;
          carry.turn.claimed = e.claimed;
        } else lines.push(`${names.player(e.player)} earned ${signed(e.points)} from ${plural(e.claimed, 'claimed node')}`);
        break;
      case 'occupied': {
        const caps = [];
        let award = 0;
        let reserved: number | null = null;
        for (let j = i + 1; j < events.length; j++) {
          const f = events[j];
          if (f.event === 'captured' && f.player === e.player) {
            caps.push(f);
            award += f.award;
          } else if (f.event === 'reserved') {
            reserved = f.node;
          } else if (f.event === 'occupied' || f.event === 'turn_started') {
            break;
          }
        }
        let line = `${names.player(e.player)} occupied ${names.label(e.node)}`;
        if (caps.length > 0) {
          const stones = caps.reduce((n, c) => n + c.nodes.length, 0);
          const victims = caps.map((c) => names.player(c.victim)).join(' and ');
          line += ` and captured ${plural(stones, 'stone')} of ${victims}: ${signed(award)}`;
        } else {
          line += ` (${signed(-e.cost)})`;
        }
        if (reserved !== null) line += `; ${names.label(reserved)} is reserved`;
        push(line, e.player);
        break;
      }
      case 'skipped':
        push(e.timeout ? `${names.player(e.player)} ran out of time: turn skipped` : `${names.player(e.player)} skipped`, e.player);
        break;
      case 'passed':
        if (!e.automatic) push(`${names.player(e.player)} passed (${e.consecutive} in a row)`, e.player);
        break;
      case 'resigned':
        push(
          e.absent
            ? `${names.player(e.player)} ran out of time too often and is out of the game (place ${e.place})`
            : `${names.player(e.player)} resigned (place ${e.place})`,
          e.player,
        );
        break;
      case 'turn_limit_reached':
        lines.push(`The turn limit (${e.turns} turns) is reached: play ends`);
        break;
      case 'clean_up_started':
        flush();
        lines.push('Clean-Up: each player chooses stones to surrender');
        break;
      case 'surrendered':
        lines.push(
          e.timeout
            ? `${names.player(e.player)} ran out of Clean-Up time: nothing surrendered`
            : `${names.player(e.player)} surrendered ${plural(e.nodes.length, 'stone')}`,
        );
        break;
      case 'stones_removed':
        lines.push(
          `${plural(e.nodes.length, 'stone')} of ${names.player(e.owner)} removed` +
            (e.claimant !== null && e.award > 0 ? `: ${names.player(e.claimant)} ${signed(e.award)}` : ''),
        );
        break;
      case 'final_bonus':
        if (e.points !== 0) lines.push(`${names.player(e.player)}: final bonus ${signed(e.points)} for ${plural(e.claimed, 'claimed node')}`);
        break;
      case 'game_over':
        flush();
        lines.push(`Game over: ${e.ranking.map((p, k) => `${k + 1}. ${names.player(p)} (${e.scores[p]})`).join(', ')}`);
        break;
      default:
        break;
    }
  }
  return lines;
}

/** Disputed nodes as the server's state says, once there is a stone on the map (an empty map's
 *  one region is bordered by nobody: nothing to shade yet). */
function disputed(state: GoBeyondState): Set<number> | undefined {
  if (!state.nodes || !state.board.some((c) => c !== null && c !== undefined)) return undefined;
  const out = new Set<number>();
  state.nodes.forEach((n, i) => {
    if (n === 'disputed') out.add(i);
  });
  return out;
}

/** Clean-Up: each player surrenders their own groups that cannot live. */
function surrender(s: GoBeyondState, map: MapView) {
  return cleanUp(s.board, map, s.players.length, s.awaiting_cleanup ?? [], {
    intro: 'Click your groups that cannot live to surrender them (each surrendered stone pays whoever then claims its node). Then submit — possibly nothing.',
    chosen: (seat) => {
      const p = s.players[seat]?.surrendered;
      return p ? (p.length ? `surrenders ${p.join(', ')}` : 'surrenders nothing') : null;
    },
    input: (nodes) => ({ type: 'surrender', nodes }),
    submit: (n) => (n ? `Surrender ${n} stone${n === 1 ? '' : 's'}` : 'Surrender nothing'),
  });
}

/** Stones crossed out in Clean-Up: the viewer's choice, and what the others have surrendered. */
function surrendered(s: GoBeyondState, map: MapView, selected: Set<number> | undefined): Set<number> {
  const out = new Set(selected);
  for (const p of s.players) for (const l of p.surrendered ?? []) {
    const i = map.labels.indexOf(l);
    if (i >= 0) out.add(i);
  }
  return out;
}

function guide(d: Record<string, unknown>): HTMLElement[] {
  const n = (k: string, fallback: number) => (typeof d[k] === 'number' ? (d[k] as number) : fallback);
  const start = n('starting_points', 200);
  const cost = n('occupy_cost', 10);
  const award = n('capture_award', 10);
  const income = n('claim_income', 1);
  const bonus = n('final_bonus', 10);
  const turn = n('turn_seconds', 20);
  return sections([
    ['The goal', `Finish with the most PlayPoints. Everyone starts with ${start}. Stones cost points, surrounded empty points earn them, captures pay, and at the end every point you claim is worth a bonus. Two to eight players take turns in a fixed order.`],
    ['A turn',
      `Your turn starts with income: +${income} for every empty point you claim. Then you do one thing: occupy an empty point (a stone costs ${cost}), skip, pass, or resign. You have ${spanText(turn)}; if the time runs out, your turn is skipped.`],
    ['Claims',
      'An empty area that touches stones of only one player is claimed by that player: it pays them income every turn. An area touching two or more colours is disputed and pays nobody.',
      row(
        diagram(['xxX..', 'xxX..', 'XXX..', '...OO', '...Oo'], 'Black claims the four points in the corner, White one; the rest is disputed.'),
      )],
    ['Captures',
      `A group with no liberties (no empty point next to it along the lines) is captured: its stones leave the board and the capturer earns ${award} per stone. You may not place a stone that would have no liberties, unless it captures.`,
      row(
        diagram(['.....', '..XX.', '.XOO.', '..XX.', '.....'], 'White\u2019s two stones have one liberty left.'),
        diagram(['.....', '..XX.', '.X..X*', '..XX.', '.....'], `Black fills it: two stones captured, +${2 * award}.`),
      )],
    ['Reserved points', 'When a lone stone captures exactly one stone and is left with that one liberty, the emptied point is reserved for the capturer until their next turn: nobody may play there. This stops endless recapturing back and forth.'],
    ['Skip or Pass', 'Both do nothing this turn. A pass also counts towards the end: when every player passes in a row (one more pass than there are players), play stops. A skip never ends anything: use it to wait without ending the game.'],
    ['The end',
      'After the passes comes Clean-Up: each player may surrender their own stones that cannot live; the player who then claims each freed point earns for it. Then everyone gets a final bonus of ' + `${bonus} for each point they claim, and the most PlayPoints wins. Equal PlayPoints go to the player later in the turn order.`,
      'A player who resigns takes the last place still free; when only one player is left, they win.'],
  ]);
}

export const gobeyond = defineSystem<SystemTypes['gobeyond']>({
  name: 'gobeyond',
  title: 'GoBeyond',
  defaultMap: 'hex:5',
  rulesLine: (r) => (typeof r.turn_seconds === 'number' ? [r.turn_seconds ? `${spanText(r.turn_seconds)} per turn` : 'no turn clock'] : []),
  guide,
  lastMove: (a, map) => (a.type === 'place' ? placedAt(a, map) : null),
  // Lines carry the game's turn numbers.
  describe: (events, names, carry) => describeGoBeyond(events, names, carry),
  numbered: false,
  columns: [
    { header: 'Points', cls: 'points', cell: (p) => String(p?.points ?? '') },
    {
      header: 'At end',
      cls: 'projected',
      title: 'PlayPoints if the game ended now: plus the final bonus for what is claimed',
      cell: (p) => (p?.projected !== undefined ? `→ ${p.projected}` : ''),
      // Once the game is over its points are final (the bonus is in them): a projection
      // would add the bonus a second time.
      shown: (s) => !s || (s.outcome === null && s.phase !== 'finished'),
    },
    {
      header: 'Claimed',
      title: 'claimed nodes (income per turn)',
      cell: (p, s) => (p?.claimed !== undefined ? `${p.claimed} (+${p.claimed * Number(s?.rules.claim_income ?? 1)})` : ''),
    },
  ],
  standing: (p) => `${p.points} PlayPoints, ${p.claimed} claimed`,
  buttons: () => [{ id: 'skip', label: 'Skip', title: 'Do nothing this turn (keyboard: S)', key: 's', input: { type: 'skip' } }],
  passesToEnd: (s) => s.passes_to_end,
  passTitle: (s) => `Pass: ${s.passes_to_end ?? ''} passes in a row end the game (keyboard: P)`,
  decorate: (s, map, viewer) => {
    const nodes = new Map<number, NodeDecoration>();
    s.claims?.forEach((c, i) => {
      if (c !== null) at(nodes, i).claim = c;
    });
    s.reserved?.forEach((seat, i) => {
      if (seat !== null) at(nodes, i).ring = { kind: 'reserved', seat };
    });
    for (const i of disputed(s) ?? []) at(nodes, i).shade = 'disputed';
    const crossed = s.phase === 'clean_up' ? surrendered(s, map, viewer.selected) : undefined;
    return { nodes, stones: goStones(s.board, map, viewer, crossed) };
  },
  decision: (s, map) => (s.phase === 'clean_up' ? surrender(s, map) : null),
  resigned: (s, seat) => ['resigned', 'timed_out'].includes(s.players[seat]?.status ?? ''),
  timedOut: (s, seat) => s.players[seat]?.status === 'timed_out',
  describeEmpty: (label, node, s, names) => {
    if (s.reserved?.[node] != null) return `${label}: reserved for ${names.player(s.reserved[node] as number)}`;
    if (s.claims?.[node] != null) return `${label}: claimed by ${names.player(s.claims[node] as number)}`;
    // An empty map's one region touches nobody: nothing to say yet.
    return disputed(s)?.has(node) ? `${label}: disputed (no one claims it)` : label;
  },
  hasSgf: () => false,
});
