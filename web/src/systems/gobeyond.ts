// GoBeyond in the web client: PlayPoints and claims, Skip, claimed and disputed nodes, and the
// event log in plain words ("Blue occupied F5 and captured 3 stones: +30").

import { type NodeDecoration, at } from '../decorations';
import type { GameState, GoBeyondEvent } from '../types';
import { type Naming, plural, signed } from '../words';
import { goStones } from './kit';
import type { SystemUi } from './types';

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
            ? `${names.player(e.player)} ran out of time too often and is resigned (place ${e.place})`
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
function disputed(state: GameState): Set<number> | undefined {
  if (!state.nodes || !state.board.some((c) => c !== null && c !== undefined)) return undefined;
  const out = new Set<number>();
  state.nodes.forEach((n, i) => {
    if (n === 'disputed') out.add(i);
  });
  return out;
}

export const gobeyond: SystemUi = {
  name: 'gobeyond',
  title: 'GoBeyond',
  historyInState: true,
  logOfSync: (state, _actions, seq, names, carry) =>
    describeGoBeyond((state?.events ?? []) as GoBeyondEvent[], names, carry).map((text) => ({ seq, text })),
  logOfAction: () => [],
  logOfUpdate: (msg, _before, names, carry) => describeGoBeyond(msg.events as GoBeyondEvent[], names, carry),
  columns: [
    { header: 'Points', cls: 'points', cell: (p) => String(p?.points ?? '') },
    {
      header: 'At end',
      cls: 'projected',
      title: 'PlayPoints if the game ended now: plus the final bonus for what is claimed',
      cell: (p) => (p?.projected !== undefined ? `→ ${p.projected}` : ''),
    },
    {
      header: 'Claimed',
      title: 'claimed nodes (income per turn)',
      cell: (p, s) => (p?.claimed !== undefined ? `${p.claimed} (+${p.claimed * Number(s?.rules.claim_income ?? 1)})` : ''),
    },
  ],
  buttons: () => [{ id: 'skip', label: 'Skip', title: 'Do nothing this turn (keyboard: S)', key: 's', input: { type: 'skip' } }],
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
    return { nodes, stones: goStones(s.board, map, viewer) };
  },
  describeEmpty: (label, node, s, names) => {
    if (s.reserved?.[node] != null) return `${label}: reserved for ${names.player(s.reserved[node] as number)}`;
    if (s.claims?.[node] != null) return `${label}: claimed by ${names.player(s.claims[node] as number)}`;
    return `${label}: disputed`;
  },
  hasSgf: () => false,
};
