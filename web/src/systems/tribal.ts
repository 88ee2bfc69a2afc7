// Tribal Go in the web client: the roll-off and the dice, start points, the range highlighted
// on the board, handicap stones, the hand of cards and their plays, the reaction window
// (reject or let stand), alliances (surrender, accept, independence), prisoners by colour, and
// the count at the end explained step by step in the log.

import { type NodeDecoration, at } from '../decorations';
import { h } from '../dom';
import type { RulesSpec, SystemTypes, TribalCard, TribalEvent, TribalState } from '../protocol';
import type { MapView } from '../types';
import { type Naming, plural } from '../words';
import { diagram, row, sections } from '../diagrams';
import { cleanUp, goStones, goWords, placedAt } from './kit';
import { type Button, defineSystem } from './types';

/** Each card's name and text (the document's words), as the player reads them. */
export const CARDS: Record<TribalCard, { title: string; text: string }> = {
  no_move: { title: 'No Move', text: 'Not useful for anything.' },
  extra_move: { title: 'Extra Move', text: 'Two stones this turn, at least 5 steps apart and in different groups.' },
  reject: { title: 'Reject', text: "Reject another player's move in the same round: it is undone." },
  reject_and_replace: { title: 'Reject and Replace', text: "Reject another player's move and put one of your stones where it was." },
  move_anywhere: { title: 'Move Anywhere', text: 'One stone anywhere on the board, whatever the range.' },
  pair_place: { title: 'Pair Place', text: 'Two stones on neighbouring nodes at once, one of them within range.' },
  replace_any: { title: 'Replace Any', text: "Replace another tribe's stone with one of yours (it goes back to its owner)." },
  move_two: { title: 'Move Two', text: 'Instead of a new stone, move two of your stones within range.' },
  move_three: { title: 'Move Three', text: 'Instead of a new stone, move three of your stones within range.' },
  points3: { title: '3 Game Points', text: 'Bank 3 points for the end of the game.' },
  points5: { title: '5 Game Points', text: 'Bank 5 points for the end of the game.' },
  trade1_for2: { title: 'Trade Prisoners 1-2', text: 'Give 1 of your prisoners to another player and take 2 of theirs.' },
  trade2_for5: { title: 'Trade Prisoners 2-5', text: 'Give 2 of your prisoners to another player and take 5 of theirs.' },
  trade3_for8: { title: 'Trade Prisoners 3-8', text: 'Give 3 of your prisoners to another player and take 8 of theirs.' },
};

const title = (c: TribalCard) => CARDS[c]?.title ?? c;
const isTrade = (c: TribalCard) => c.startsWith('trade');
const isMove = (c: TribalCard) => c === 'move_two' || c === 'move_three';

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
      case 'drew':
        lines.push(`${who(e.player)} drew a card${e.doubles ? ' (a pair)' : ''}`);
        break;
      case 'returned':
        lines.push(`${who(e.player)} put a card back under the pile`);
        break;
      case 'discarded':
        lines.push(`${who(e.player)} discarded ${title(e.card)}`);
        break;
      case 'card_played':
        lines.push(`${who(e.player)} played ${title(e.card)}`);
        break;
      case 'moved':
        lines.push(`${who(e.player)} moved ${names.label(e.from)} to ${names.label(e.to)}`);
        break;
      case 'lifted':
        lines.push(`${who(e.player)}'s stone at ${names.label(e.node)} was lifted (back to the supply)`);
        break;
      case 'traded': {
        const n = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        lines.push(`${who(e.player)} gave ${plural(n(e.gave), 'prisoner')} to ${who(e.with)} and took ${n(e.took)}`);
        break;
      }
      case 'rejected':
        lines.push(`${who(e.player)} rejected ${who(e.mover)}'s move with ${title(e.card)}: it is undone`);
        break;
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
export function contact(s: TribalState, map: MapView, q: number, p: number): number {
  const near = new Set<number>();
  for (const [a, b] of map.edges) {
    if (s.board[a] === q && s.board[b] === p) near.add(a);
    if (s.board[b] === q && s.board[a] === p) near.add(b);
  }
  return near.size;
}

/** The players `me` may offer to surrender to now (rules 50, 53, 55): independent, with the
 *  most stones touching `me`'s (ties allow each), more than the current occupier has. */
export function surrenderTargets(s: TribalState, map: MapView, me: number): number[] {
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

const dice = (s: TribalState) => s.rules.range === 'dice' || s.rules.range === undefined;

function cardButtons(s: TribalState): Button[] {
  return (s.playable ?? []).map((c) => ({
    id: `card-${c}`, label: `Play ${title(c)}`, title: CARDS[c]?.text ?? c, key: '', input: { type: 'play_card', card: c },
  }));
}

function buttons(s: TribalState, map?: MapView): Button[] {
  const out: Button[] = [];
  if (s.phase === 'reaction') {
    const r = s.reaction;
    if (!r?.asked) return out;
    out.push({ id: 'let-stand', label: 'Let it stand', title: 'Do not reject the move (keyboard: L)', key: 'l', input: { type: 'react', answer: 'decline' } });
    if (r.can_reject) out.push({ id: 'reject', label: 'Reject', title: CARDS.reject.text, key: 'j', input: { type: 'react', answer: 'reject' } });
    if (r.can_replace) out.push({ id: 'reject-replace', label: 'Reject and Replace', title: CARDS.reject_and_replace.text, key: '', input: { type: 'react', answer: 'reject_and_replace' } });
    return out;
  }
  if (s.phase === 'card') {
    const play = s.card_play;
    if (play && isTrade(play.card)) {
      for (const p of s.players) {
        if (p.player === s.to_move) continue;
        out.push({ id: `trade-${p.player}`, label: `Trade with ${p.color}`, title: 'The colours are chosen in your favour', key: '', input: { type: 'trade', with: p.player } });
      }
    }
    out.push({ id: 'forgo', label: play?.placed.length ? 'End the card' : 'Give up the card', title: 'End this card here (keyboard: F)', key: 'f', input: { type: 'forgo' } });
    return out;
  }
  if (s.phase === 'replace') {
    out.push({ id: 'forgo', label: 'Place nothing', title: 'Keep the rejection without a stone (keyboard: F)', key: 'f', input: { type: 'forgo' } });
    return out;
  }
  if (s.phase === 'discard' || s.phase === 'return') {
    const kinds = [...new Set(s.hand ?? [])];
    const verb = s.phase === 'discard' ? 'Discard' : 'Return';
    return kinds.map((c) => ({ id: `${s.phase}-${c}`, label: `${verb} ${title(c)}`, title: CARDS[c]?.text ?? c, key: '', input: { type: s.phase as string, card: c } }));
  }
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
    out.push(...cardButtons(s));
    out.push({ id: 'forgo', label: 'Place nothing', title: 'End the turn without a stone (keyboard: F)', key: 'f', input: { type: 'forgo' } });
    return out;
  }
  if (dice(s)) out.push({ id: 'roll', label: 'Roll', title: 'Play: roll two dice, the higher is your range (keyboard: R)', key: 'r', input: { type: 'roll' } });
  else {
    out.push(...cardButtons(s));
    out.push({ id: 'forgo', label: 'Place nothing', title: 'End the turn without a stone (keyboard: F)', key: 'f', input: { type: 'forgo' } });
  }
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

function guide(): HTMLElement[] {
  return sections([
    ['The goal', 'Hold more territory than any other tribe at the end. Two to eight tribes take turns; nobody may resign — a tribe that has nothing left to do passes.'],
    ['The start',
      'In the casual game everyone rolls two dice: the highest total moves first and chooses a start point first (ties roll again). Start points are spread as far apart as the map allows; yours is where your tribe grows from, not a stone.',
      'Newcomers get handicap stones: players with more games behind them owe fewer stones, and the stones go within 3 steps of the start point or the tribe\u2019s stones.'],
    ['A turn',
      'Pass, or Play: roll two dice — the higher die is your range — and place one stone on an empty point within that many steps (along the lines) of your start point or any of your stones. You may also place nothing after a bad roll. In the Pro game there are no dice: the range is fixed (5 by default).',
      row(diagram(['.....', '.....', '..X..', '.....', '.....'], 'With a range of 1, Black may play on the four points next to its stone (or next to its start point).'))],
    ['Captures and spoils',
      'A group with no liberties is captured, as in Go. Its stones are shared among every tribe with a stone touching it: each gets the same number, and the tribe that played the capturing stone also gets what is left over. Prisoners count at the end.',
      row(
        diagram(['.....', '.....', '.XR..', 'XOO..', '.XXX.'], 'White\u2019s two stones have one liberty left; Black and Red touch them.'),
        diagram(['.....', '.....', '.XR..', 'X..X*.', '.XXX.'], 'Black captures: Black and Red get one prisoner each.'),
      )],
    ['Alliances',
      'With three or more tribes, a tribe in trouble may surrender (on its turn) to the tribe with the most stones touching its own; that tribe must accept. Allied stones then count as one group and never capture each other, and the vassal\u2019s points count for its occupier. A vassal may declare independence on a later turn, or switch to a tribe that touches it more.'],
    ['The end',
      'When every tribe passes in a row the game ends. Groups with no liberties are removed and shared out; each tribe names its own dead stones, which become prisoners of whoever surrounds them. Then prisoners are filled into the territory of their colour: each prisoner of your colour held by another tribe takes one point of your territory away; prisoners that do not fit count for the tribes holding them. The most points wins; equal points share the place.'],
    ['Cards',
      'In the casual game a pair on the dice, or a pass, draws a card (you hold at most three; the others see only how many). Cards give extra or distant stones, move your stones, bank points or trade prisoners. Reject cards are played in answer to another tribe’s move: after each move everyone is asked, and a Reject undoes it.'],
  ]);
}

/** The range in the rules line. */
function rangeWords(r: RulesSpec): string[] {
  if (r.range === 'dice') return ['range from the dice'];
  if (r.range === 'fixed') return [`range ${String(r.fixed_range)}`];
  if (r.range === 'unlimited') return ['any range'];
  return [];
}

export const tribal = defineSystem<SystemTypes['tribal']>({
  name: 'tribal',
  title: 'Tribal Go',
  defaultMap: 'square:19',
  rulesLine: (r) => [...goWords(r), ...rangeWords(r)],
  guide,
  lastMove: (a, map) => (a.type === 'place' ? placedAt(a, map) : null),
  // A move may take several lines (the dice, the stone, the spoils): none is numbered.
  describe: (events, names) => describeTribal(events, names),
  numbered: false,
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
  standing: (p) => plural(p.held.reduce((a, b) => a + b, 0), 'prisoner'),
  buttons,
  canResign: false,
  passTitle: (s) => `Pass: when all ${s.players.length} players pass in a row the game ends (keyboard: P)`,
  passAllowed: (s) => s.phase === 'playing' && !s.dice && s.rolling == null,
  decorate: (s, map, viewer) => {
    const nodes = new Map<number, NodeDecoration>();
    // Start points first: their rings are drawn in this order.
    for (const p of s.players) if (p.start != null) at(nodes, p.start).ring = { kind: 'start', seat: p.player };
    for (const v of s.start_choices ?? []) at(nodes, v).ring = { kind: 'start', seat: null };
    s.reachable?.forEach((r, i) => {
      if (r && s.board[i] == null) at(nodes, i).shade = 'reachable';
    });
    for (const v of s.replace ?? []) at(nodes, v).shade = 'reachable';
    return { nodes, stones: goStones(s.board, map, viewer, s.phase === 'clean_up' ? (viewer.selected ?? []) : undefined) };
  },
  // Clean-Up: each tribe names its own dead stones; the log says who named what, the card only
  // waits.
  decision: (s, map) => (s.phase !== 'clean_up' ? null : cleanUp(s.board, map, s.players.length, s.awaiting_cleanup ?? [], {
    intro: 'Click your own groups that are dead, then submit — possibly nothing. Each dead stone becomes a prisoner of whoever then surrounds its point.',
    chosen: () => null,
    input: (nodes) => ({ type: 'dead', nodes }),
    submit: (n) => (n ? `Name ${plural(n, 'dead stone')}` : 'Nothing is dead'),
  })),
  resigned: () => false,
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
      case 'card': {
        const play = s.card_play;
        if (!play) return null;
        if (!mine) return `${name(s.to_move)} plays ${title(play.card)}.`;
        const left = play.steps_left;
        switch (play.card) {
          case 'extra_move':
            return `Extra Move: place ${plural(left, 'more stone')}, at least 5 steps from this turn's stones, in another group.`;
          case 'move_anywhere':
            return 'Move Anywhere: place a stone on any empty node.';
          case 'pair_place':
            return play.pair == null
              ? 'Pair Place: click the first of two neighbouring empty nodes.'
              : `Pair Place: click a neighbour of ${names.label(play.pair)} for the second stone.`;
          case 'replace_any':
            return "Replace Any: click another tribe's stone to replace it with yours.";
          case 'move_two':
          case 'move_three':
            return `${title(play.card)}: click one of your stones, then an empty node within range (${left} left).`;
          default:
            return `${title(play.card)}: choose the player to trade with.`;
        }
      }
      case 'reaction': {
        const mover = name(s.reaction?.mover);
        if (s.reaction?.asked) {
          const can = s.reaction.can_reject || s.reaction.can_replace;
          return can ? `${mover} moved. Reject the move, or let it stand?` : `${mover} moved. You hold no Reject card: let it stand.`;
        }
        return `Waiting for the answers to ${mover}'s move.`;
      }
      case 'replace':
        return mine ? 'Reject and Replace: put your stone where the rejected move was (ringed), or nothing.' : `${name(s.to_move)} replaces the rejected move.`;
      case 'discard':
        return mine ? 'More than three cards: discard one (face up).' : `${name(s.to_move)} discards a card.`;
      case 'return':
        return mine ? 'More than three cards: put one back under the pile.' : `${name(s.to_move)} puts a card back.`;
      case 'playing':
        if (s.rolling != null) return `${name(s.rolling)} is ${s.dice ? 'drawing a card' : 'rolling'}…`;
        if (s.dice) {
          const roll = `rolled ${s.dice[0]} and ${s.dice[1]}: range ${s.range}`;
          const cards = (s.playable ?? []).length ? ', play a card' : '';
          return mine ? `You ${roll}. Place a stone on a highlighted node${cards}, or place nothing.` : `${name(s.to_move)} ${roll}.`;
        }
        if (mine) return dice(s) ? 'Your turn: roll the dice, or pass.' : `Your turn: place within ${s.range ?? 'any distance'}, or pass.`;
        return `${name(s.to_move)} to play.`;
      default:
        return null;
    }
  },
  hasSgf: () => false,
  keepsPick: (s) => s.phase === 'card',
  clickInput: (s, node, seat, picked) => {
    if (s.phase !== 'card' || !s.card_play || !isMove(s.card_play.card)) return null;
    if (s.board[node] === seat) return { pick: node };
    if (picked === null) return { say: 'Click one of your stones first, then where it goes.' };
    if (s.board[node] != null) return { say: 'A stone moves to an empty node.' };
    return { input: { type: 'move_stone', from: picked, node } };
  },
  panel: (s) => {
    if (!s.cards || !s.hand) return null;
    const playable = new Set(s.playable ?? []);
    const box = h('div', { class: 'hand', id: 'hand' },
      h('div', { class: 'row spread' },
        h('strong', {}, `Your cards (${s.hand.length} of 3)`),
        h('span', { class: 'muted' }, `${s.to_draw ?? 0} to draw · ${(s.discards ?? []).length} discarded`)));
    if (!s.hand.length) box.append(h('p', { class: 'muted' }, 'No cards: a pass or a pair of dice draws one.'));
    const list = h('ul', { class: 'cards' });
    for (const c of s.hand) {
      list.append(h('li', { class: playable.has(c) ? 'card-item playable' : 'card-item', title: CARDS[c]?.text ?? c },
        h('strong', {}, title(c)), playable.has(c) ? h('span', { class: 'badge' }, 'playable') : '',
        h('div', { class: 'muted' }, CARDS[c]?.text ?? '')));
    }
    box.append(list);
    return box;
  },
});
