// Classic Go in the web client: captures and scores, a log line per move.

import type { GameState, RecordedAction } from '../types';
import { type Naming, plural } from '../words';
import { goStones, onlyStones } from './kit';
import type { SystemUi } from './types';

/** A line for one action of a classic game. */
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
      return `${who}: ${action.type}`;
  }
}

/** Stones `player` took by this action (classic states count prisoners). */
function capturedBetween(before: GameState | null, after: GameState, player: number): number {
  const a = after.players[player]?.prisoners ?? 0;
  const b = before?.players[player]?.prisoners ?? 0;
  return Math.max(0, a - b);
}

export const classic: SystemUi = {
  name: 'classic',
  title: 'Classic Go',
  historyInState: false,
  logOfSync: (_state, actions, _seq, names) => actions.map((a, i) => ({ seq: i + 1, text: describeClassic(a, names, 0) })),
  logOfAction: (action, seq, names) => [{ seq, text: describeClassic(action, names, 0) }],
  logOfUpdate: (msg, before, names) => [describeClassic(msg.action, names, capturedBetween(before, msg.state, msg.action.player))],
  columns: [
    { header: 'Captures', cell: (p) => String(p?.prisoners ?? '') },
    { header: 'Score', cell: (p) => (p?.score !== undefined ? String(p.score) : '') },
  ],
  buttons: () => [],
  passTitle: () => 'Pass (keyboard: P)',
  decorate: (s, map, viewer) => onlyStones(goStones(s.board, map, viewer)),
  describeEmpty: (label) => label,
  hasSgf: (players) => players === 2,
};
