// Tribal Go in the web client: the roll-off and the dice, start points, the range highlighted
// on the board, handicap stones, alliances (surrender, accept, independence), prisoners by
// colour, and the count at the end explained step by step in the log.

import type { GameState, MapView, TribalEvent } from '../types';
import { type Naming, plural } from '../words';
import type { Button, SystemUi } from './index';

/** Lines for Tribal Go events. */
export function describeTribal(events: TribalEvent[], names: Naming): string[] {
  const lines: string[] = [];
  const who = (p: number | null) => (p === null ? 'nobody' : names.player(p));
  for (const e of events) {
    switch (e.event) {
      case 'rolled_off':
        lines.push(`${who(e.player)} rolled ${e.dice[0]} + ${e.dice[1]} = ${e.total} for the order`);
        break;
      case 'order':
        lines.push(`Order: ${e.order.map(who).join(', ')} (${who(e.order[0] ?? null)} moves first)`);
        break;
      case 'start_chosen':
        lines.push(`${who(e.player)} starts at ${names.label(e.node)}`);
        break;
      case 'rolled':
        lines.push(`${who(e.player)} rolled ${e.dice[0]} and ${e.dice[1]}: range ${e.range}${e.doubles ? ' (a pair)' : ''}`);
        break;
      case 'placed':
        lines.push(`${who(e.player)} ${e.handicap ? 'placed a handicap stone at' : 'played'} ${names.label(e.node)}`);
        break;
      case 'captured': {
        const shares = e.shares.map(([p, n]) => `${who(p)} +${n}`).join(', ');
        const by = e.player === null ? 'removed at the count' : `captured by ${who(e.player)}`;
        lines.push(`${plural(e.nodes.length, 'stone')} ${by}${shares ? `: ${shares} prisoners` : ': back to their owners'}`);
        break;
      }
      case 'passed':
        lines.push(`${who(e.player)} passed${e.automatic ? ' (gone)' : ''} (${e.consecutive} in a row)`);
        break;
      case 'forgone':
        lines.push(e.handicap ? `${who(e.player)} gave up a handicap stone` : `${who(e.player)} placed nothing`);
        break;
      case 'surrender_offered':
        lines.push(`${who(e.player)} offers to surrender to ${who(e.to)}`);
        break;
      case 'surrender_accepted':
        lines.push(`${who(e.player)} is now occupied by ${who(e.to)}`);
        break;
      case 'surrender_declined':
        lines.push(`${who(e.to)} declined ${who(e.player)}'s surrender`);
        break;
      case 'independent':
        lines.push(`${who(e.player)} declared independence from ${who(e.from)}`);
        break;
      case 'timed_out':
        lines.push(`${who(e.player)} ran out of time and passes from now on`);
        break;
      case 'clean_up_started':
        lines.push('Everyone passed: each player names their own dead stones');
        break;
      case 'dead_chosen':
        lines.push(`${who(e.player)} named ${plural(e.nodes.length, 'dead stone')}`);
        break;
      case 'dead_removed':
        lines.push(`${who(e.owner)}'s dead stone at ${names.label(e.node)} ${e.to === null ? 'goes back (disputed)' : `is a prisoner of ${who(e.to)}`}`);
        break;
      case 'filled_in': {
        const over = e.overflow.map(([p, n]) => `${who(p)} +${n}`).join(', ');
        lines.push(
          `${who(e.team)}: ${plural(e.territory, 'point')} of territory, ${plural(e.prisoners, 'prisoner')} of its colours filled in, ${e.left} left` +
            (over ? `; overflow: ${over}` : ''),
        );
        break;
      }
      case 'game_over':
        lines.push(`Game over: ${e.ranking.map((p, k) => `${k + 1}. ${who(p)} (${e.scores[p]})`).join(', ')}`);
        break;
      default:
        break;
    }
  }
  return lines;
}

/** c(q, p): how many of q's stones touch at least one of p's (rule 49). */
export function contact(s: GameState, map: MapView, q: number, p: number): number {
  const near = new Set<number>();
  for (const [a, b] of map.edges) {
    if (s.board[a] === q && s.board[b] === p) near.add(a);
    if (s.board[b] === q && s.board[a] === p) near.add(b);
  }
  return near.size;
}

/** The players `me` may offer to surrender to now (rules 50, 53, 55): independent, with the
 *  most stones touching `me`'s (ties allow each), more than the current occupier has. */
export function surrenderTargets(s: GameState, map: MapView, me: number): number[] {
  const n = s.players.length;
  if (n < 3 || s.players.some((p) => p.occupier === me)) return [];
  const counts = s.players.map((p) => (p.player === me ? 0 : contact(s, map, p.player, me)));
  const most = Math.max(...counts);
  const occupier = s.players[me]?.occupier ?? null;
  return s.players
    .filter((q) => q.player !== me && q.occupier == null && q.player !== occupier && counts[q.player] > 0 && counts[q.player] === most)
    .filter((q) => occupier === null || counts[q.player] > counts[occupier])
    .map((q) => q.player);
}

const dice = (s: GameState) => s.rules.range === 'dice' || s.rules.range === undefined;

function buttons(s: GameState, map?: MapView): Button[] {
  const out: Button[] = [];
  if (s.phase === 'surrender_offer') {
    out.push({ id: 'accept-surrender', label: 'Accept', title: 'Take this faction in: its points count for you', key: 'a', input: { type: 'accept' } });
    out.push({ id: 'decline-surrender', label: 'Decline', title: 'Refuse the surrender', key: 'd', input: { type: 'decline' } });
    return out;
  }
  if (s.phase === 'handicap') {
    out.push({ id: 'forgo', label: 'Give up', title: 'Give up this handicap stone (keyboard: F)', key: 'f', input: { type: 'forgo' } });
    return out;
  }
  if (s.phase !== 'playing') return out;
  if (s.dice) {
    out.push({ id: 'forgo', label: 'Place nothing', title: 'End the turn without a stone (keyboard: F)', key: 'f', input: { type: 'forgo' } });
    return out;
  }
  if (dice(s)) out.push({ id: 'roll', label: 'Roll', title: 'Play: roll two dice, the higher is your range (keyboard: R)', key: 'r', input: { type: 'roll' } });
  else out.push({ id: 'forgo', label: 'Place nothing', title: 'End the turn without a stone (keyboard: F)', key: 'f', input: { type: 'forgo' } });
  const me = s.to_move;
  if (me !== null && s.players[me]?.occupier != null) {
    out.push({ id: 'independence', label: 'Independence', title: 'Leave your occupier (costs the turn)', key: 'i', input: { type: 'independence' } });
  }
  if (s.players.length >= 3 && me !== null && map) {
    for (const target of surrenderTargets(s, map, me)) {
      const p = s.players[target];
      out.push({
        id: `surrender-${p.player}`,
        label: `Surrender to ${p.color}`,
        title: 'Only to the player with the most stones touching yours; they must accept',
        key: '',
        input: { type: 'surrender', to: p.player },
      });
    }
  }
  return out;
}

export const tribal: SystemUi = {
  name: 'tribal',
  title: 'Tribal Go',
  historyInState: true,
  logOfSync: (state, _actions, seq, names) => describeTribal((state?.events ?? []) as TribalEvent[], names).map((text) => ({ seq, text })),
  logOfAction: () => [],
  logOfUpdate: (msg, _before, names) => describeTribal(msg.events as TribalEvent[], names),
  columns: [
    {
      header: 'Prisoners',
      cls: 'prisoners',
      title: 'prisoners held, by colour',
      cell: (p, s) => {
        const held = p?.held ?? [];
        const total = held.reduce((a, b) => a + b, 0);
        if (!total || !s) return String(total);
        const parts = held.map((n, c) => (n ? `${n} ${s.players[c]?.color ?? c}` : '')).filter(Boolean);
        return `${total} (${parts.join(', ')})`;
      },
    },
    {
      header: 'Team',
      cls: 'team',
      cell: (p, s) => {
        if (p?.gone) return 'gone (passes)';
        if (p?.occupier != null) return `occupied by ${s?.players[p.occupier]?.color ?? p.occupier}`;
        const vassals = (s?.players ?? []).filter((q) => q.occupier === p?.player).map((q) => q.color);
        return vassals.length ? `occupies ${vassals.join(', ')}` : 'independent';
      },
    },
  ],
  buttons,
  canResign: false,
  passTitle: (s) => `Pass: when all ${s.players.length} players pass in a row the game ends (keyboard: P)`,
  passAllowed: (s) => s.phase === 'playing' && !s.dice && s.rolling == null,
  markers: (s) => {
    if (!s) return {};
    const reachable = new Set<number>();
    s.reachable?.forEach((r, i) => {
      if (r && s.board[i] == null) reachable.add(i);
    });
    const starts: [number, number | null][] = s.players.filter((p) => p.start != null).map((p) => [p.start as number, p.player]);
    for (const v of s.start_choices ?? []) starts.push([v, null]);
    return { reachable, starts };
  },
  describeEmpty: (label, node, s, names) => {
    const start = s.players.find((p) => p.start === node);
    if (start) return `${label}: ${names.player(start.player)}'s start point`;
    if (s.start_choices?.includes(node)) return `${label}: a free start point`;
    if (s.reachable?.[node]) return `${label}: within range`;
    return s.reachable?.length ? `${label}: out of range` : label;
  },
  status: (s, names, mine) => {
    const name = (p: number | null | undefined) => (p == null ? 'nobody' : names.player(p));
    switch (s.phase) {
      case 'roll_off':
        return `Rolling for the order: ${name(s.rolling)}.`;
      case 'choose_start':
        return mine ? 'Choose your start point (a ringed node).' : `${name(s.to_move)} chooses a start point.`;
      case 'handicap':
        return mine ? `Place a handicap stone within ${s.range ?? 3} of your start point or stones.` : `${name(s.to_move)} places a handicap stone.`;
      case 'surrender_offer':
        return mine
          ? `${name(s.offer?.[0])} offers to surrender to you: accept or decline.`
          : `${name(s.offer?.[1])} answers ${name(s.offer?.[0])}'s surrender.`;
      case 'playing':
        if (s.rolling != null) return `${name(s.rolling)} is rolling…`;
        if (s.dice) {
          const roll = `rolled ${s.dice[0]} and ${s.dice[1]}: range ${s.range}`;
          return mine ? `You ${roll}. Place a stone on a highlighted node, or place nothing.` : `${name(s.to_move)} ${roll}.`;
        }
        if (mine) return dice(s) ? 'Your turn: roll the dice, or pass.' : `Your turn: place within ${s.range ?? 'any distance'}, or pass.`;
        return `${name(s.to_move)} to play.`;
      default:
        return null;
    }
  },
  cleanup: {
    intro: 'Click your own groups that are dead, then submit — possibly nothing. Each dead stone becomes a prisoner of whoever then surrounds its point.',
    // The log says who named what; the panel only waits.
    chosen: () => null,
    input: (nodes) => ({ type: 'dead', nodes }),
    submit: (n) => (n ? `Name ${plural(n, 'dead stone')}` : 'Nothing is dead'),
  },
  hasSgf: () => false,
};
