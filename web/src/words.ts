// The event log in plain words: "Blue occupied F5 and captured 3 stones: +30".

import type { GoBeyondEvent, RecordedAction } from './types';

export interface Naming {
  /** "Blue (ada)" or just the colour. */
  player(seat: number): string;
  label(node: number): string;
}

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;
const signed = (n: number) => (n >= 0 ? `+${n}` : `−${-n}`);

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
        lines.push(`${names.player(e.player)} resigned (place ${e.place})`);
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

/** A line for one action of a classic game (which has no events). */
export function describeClassic(action: RecordedAction, names: Naming, captured: number): string {
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
    default:
      return `${who}: ${action.type}`;
  }
}
