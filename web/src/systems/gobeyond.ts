// GoBeyond in the web client: PlayPoints and claims, Skip, claimed and disputed nodes, and the
// event log in plain words ("Blue occupied F5 and captured 3 stones: +30").

import type { GameState, GoBeyondEvent } from '../types';
import { type Naming, plural, signed } from '../words';
import type { SystemUi } from './index';

/**
 * Lines for one GoBeyond action's events. Income and turn starts are folded into the line of the
 * action they precede, so that a turn reads as one sentence plus its effects.
 */
export function describeGoBeyond(events: GoBeyondEvent[], names: Naming): string[] {
  const lines: string[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    switch (e.event) {
      case 'income':
        lines.push(`${names.player(e.player)} earned ${signed(e.points)} from ${plural(e.claimed, 'claimed node')}`);
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
        lines.push(line);
        break;
      }
      case 'skipped':
        lines.push(e.timeout ? `${names.player(e.player)} ran out of time: turn skipped` : `${names.player(e.player)} skipped`);
        break;
      case 'passed':
        if (!e.automatic) lines.push(`${names.player(e.player)} passed (${e.consecutive} in a row)`);
        break;
      case 'resigned':
        lines.push(
          e.absent
            ? `${names.player(e.player)} ran out of time too often and is resigned (place ${e.place})`
            : `${names.player(e.player)} resigned (place ${e.place})`,
        );
        break;
      case 'turn_limit_reached':
        lines.push(`The turn limit (${e.turns} turns) is reached: play ends`);
        break;
      case 'clean_up_started':
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
  logOfSync: (state, _actions, seq, names) =>
    describeGoBeyond((state?.events ?? []) as GoBeyondEvent[], names).map((text) => ({ seq, text })),
  logOfAction: () => [],
  logOfUpdate: (msg, _before, names) => describeGoBeyond(msg.events as GoBeyondEvent[], names),
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
  markers: (s) => (s ? { claims: s.claims, disputed: disputed(s) } : {}),
  describeEmpty: (label, node, s, names) => {
    if (s.reserved?.[node] != null) return `${label}: reserved for ${names.player(s.reserved[node] as number)}`;
    if (s.claims?.[node] != null) return `${label}: claimed by ${names.player(s.claims[node] as number)}`;
    return `${label}: disputed`;
  },
  hasSgf: () => false,
};
