import { describe, expect, it } from 'vitest';
import { groupsWithLiberties } from '../src/graph';
import { GameModel } from '../src/model';
import { systemUi } from '../src/systems';
import type { ClassicEvent, GoBeyondEvent, GoBeyondPlayer, GoBeyondState, TribalPlayer, TribalState } from '../src/protocol';
import type { GameInfo, GameState, ServerMessage } from '../src/types';
import { gridMap } from './fixtures';
import { markers } from './markers';

const map = gridMap(3, 3);

function info(seq: number): GameInfo {
  return {
    id: 1, status: 'live', phase: 'playing', creator: 1,
    rules: { system: 'gobeyond' }, map: { spec: 'rect:3x3' }, players: 2, time: { kind: 'none' },
    seats: [
      { seat: 0, kind: { kind: 'me' }, user: 'ada', user_id: 1, bot_level: null, rating: null },
      { seat: 1, kind: { kind: 'bot', level: 3 }, user: 'bot', user_id: 2, bot_level: 3, rating: null },
    ],
    rated: false, private: false, seq, waiting_for: [seq % 2], clock: null, outcome: null, result_text: null, undo: null, undo_refused: [null, 'only people ask to take back a move'], aborted: false, unrated: null,
    abandoned: false,
  };
}

function player(p: number, name: string, color: string): GoBeyondPlayer {
  return { player: p, name, color, stones: [], points: 200, projected: 200, status: 'playing', resigned_order: null, claimed: 0, reservation: null, surrendered: null };
}

function state(board: (number | null)[], toMove: number, events: GoBeyondEvent[] = []): GoBeyondState {
  return {
    map: { name: 'm', spec: 'rect:3x3', nodes: 9 },
    rules: { system: 'gobeyond', claim_income: 1 },
    to_move: toMove,
    players: [player(0, 'ada', 'Black'), player(1, 'bot', 'White')],
    board, outcome: null, consecutive_passes: 0, phase: 'playing', claims: Array(9).fill(null), reserved: Array(9).fill(null), events,
    turn: 1, passes_to_end: 3, nodes: board.map(() => 'disputed'), awaiting_cleanup: [],
  };
}

function tribalPlayer(p: number): TribalPlayer {
  return { player: p, name: '', color: ['Black', 'White', 'Red'][p], stones: [], occupier: null, start: null, held: [0, 0, 0], supply: null, gone: false, rolls: [], cards: 0, banked: 0 };
}

/** A three-player Tribal Go state on `board`, `toMove` to play. */
function tribal3(board: (number | null)[], toMove: number): TribalState {
  return {
    map: { name: 'm', spec: 'rect:3x3', nodes: board.length },
    rules: { system: 'tribal', range: 'dice', cards: true },
    phase: 'playing', to_move: toMove, rolling: null, dice: null, range: null, reachable: [], consecutive_passes: 0,
    players: [0, 1, 2].map(tribalPlayer), board, start_choices: [], offer: null, handicap_left: [], awaiting_cleanup: [],
    cards: false, hand: null, playable: [], to_draw: 0, discards: [], card_play: null, reaction: null, replace: [], outcome: null, events: [],
  };
}

const empty = () => Array<number | null>(9).fill(null);

describe('game model', () => {
  it('applies updates in order, ignores repeats and asks for a sync after a gap', () => {
    const m = new GameModel(1, map);
    m.apply({ type: 'sync', game: 1, seq: 0, since: 0, actions: [], info: info(0), state: state(empty(), 0), events: [] });
    expect(m.isMyTurn(1)).toBe(true);
    const b = empty();
    b[4] = 0;
    const placed = { player: 0, type: 'place', at: 'B2', node: 4 };
    const update = (seq: number): ServerMessage => ({
      type: 'update', game: 1, seq, action: placed,
      events: [{ event: 'occupied', player: 0, node: 4, cost: 10 }], state: state(b, 1), waiting_for: [1], clock: null, status: 'live', undo_refused: [],
    });
    expect(m.apply(update(1))).toBe('applied');
    expect(m.seq).toBe(1);
    expect(m.lastMove).toBe(4);
    expect(m.state?.board[4]).toBe(0);
    expect(m.isMyTurn(1)).toBe(false);
    expect(m.isMyTurn(2)).toBe(true);
    expect(m.log.map((l) => l.text)).toEqual(['Black (ada) occupied B2 (−10)']);
    expect(m.apply(update(1))).toBe('stale');
    expect(m.apply(update(3))).toBe('gap');
    expect(m.seq).toBe(1);
  });

  it('rebuilds the log from the event history of a sync (a reload in mid-game)', () => {
    const m = new GameModel(1, map);
    const events: GoBeyondEvent[] = [
      { event: 'turn_started', turn: 1, player: 0 },
      { event: 'occupied', player: 0, node: 0, cost: 10 },
      { event: 'turn_started', turn: 2, player: 1 },
      { event: 'skipped', player: 1, timeout: true },
    ];
    m.apply({ type: 'sync', game: 1, seq: 2, since: 0, actions: [], info: info(2), state: state(empty(), 0, events), events });
    expect(m.log.map((l) => l.text)).toEqual(['1. Black (ada) occupied A3 (−10)', '2. White (bot) ran out of time: turn skipped']);
  });

  it('finds groups in atari on any graph', () => {
    // X at A3 (node 0) with O at B3 (1): X's only liberty is A2 (3).
    const b = empty();
    b[0] = 0;
    b[1] = 1;
    expect([...groupsWithLiberties(map, b, 1)]).toEqual([0]);
    b[3] = 1;
    // Now X has none left on the board we drew (a captured position never shows), O's two stones have 3 and 2.
    expect(groupsWithLiberties(map, b, 1).size).toBe(0);
  });

  it('shades the nodes the server calls disputed, none on an empty map, and knows its systems', () => {
    const gob = systemUi('gobeyond');
    const s = state(empty(), 0);
    s.nodes = Array(9).fill('disputed');
    expect(markers(gob, s, map).disputed).toBeUndefined();
    s.board[0] = 0;
    s.board[8] = 1;
    s.nodes = s.board.map((c, i) => (c !== null ? 'occupied' : i === 3 ? 'claimed' : 'disputed'));
    expect([...(markers(gob, s, map).disputed ?? [])].sort()).toEqual([1, 2, 4, 5, 6, 7]);
    expect(gob.buttons(s).map((b) => b.id)).toEqual(['skip']);
    // Classic Go: no claims, no extra buttons; unknown systems fall back to it.
    expect(markers(systemUi('classic'), s, map)).toEqual({});
    expect(systemUi('classic').buttons(s)).toEqual([]);
    expect(systemUi('no-such-system').name).toBe('classic');
  });

  it('keeps an undo request until it is settled', () => {
    const m = new GameModel(1, map);
    m.apply({ type: 'lobby', game: 1, info: info(3) });
    expect(m.apply({ type: 'undo', game: 1, request: { by: 0, from: 3, waiting: [1] }, note: null, undo_refused: [null, null] })).toBe('applied');
    expect(m.info?.undo?.waiting).toEqual([1]);
    const declined = 'this undo was declined: it cannot be asked again';
    m.apply({ type: 'undo', game: 1, request: null, note: { kind: 'declined', seat: 1 }, undo_refused: [declined, null] });
    expect(m.info?.undo).toBeNull();
    expect(m.info?.undo_refused?.[0]).toBe(declined);
  });

  it('numbers classic log lines by move, across a sync, updates and a take-back', () => {
    const m = new GameModel(1, map);
    const classic = { ...info(2), rules: { system: 'classic' } };
    const st = { ...state(empty(), 0), rules: { system: 'classic' } } as GameState;
    const a1 = { player: 0, type: 'place' as const, at: 'A3', node: 0 };
    const a2 = { player: 1, type: 'pass' as const };
    const e1: ClassicEvent[] = [{ event: 'placed', player: 0, node: 0 }, { event: 'passed', player: 1, consecutive: 1 }];
    m.apply({ type: 'sync', game: 1, seq: 2, since: 0, actions: [{ seq: 1, action: a1 }, { seq: 2, action: a2 }], info: classic, state: st, events: e1 });
    const e3: ClassicEvent[] = [{ event: 'passed', player: 0, consecutive: 2 }];
    m.apply({ type: 'update', game: 1, seq: 3, action: { player: 0, type: 'pass' }, events: e3, state: st, waiting_for: [1], clock: null, status: 'live', undo_refused: [] });
    expect(m.log.map((l) => l.text)).toEqual(['1. Black (ada) played A3', '2. White (bot) passed', '3. Black (ada) passed']);
    // Move 3 taken back: the full sync after it starts the count again (sequence numbers go on).
    m.apply({ type: 'sync', game: 1, seq: 4, since: 0, actions: [{ seq: 1, action: a1 }, { seq: 2, action: a2 }], info: classic, state: st, events: e1 });
    expect(m.log.map((l) => l.text)).toEqual(['1. Black (ada) played A3', '2. White (bot) passed']);
  });
});

describe('Tribal Go surrender targets', () => {
  it('are the independent players with the most stones touching, as the engine says', async () => {
    const { surrenderTargets, contact } = await import('../src/systems/tribal');
    const m = gridMap(7, 7);
    const s = tribal3(Array(49).fill(null), 2);
    // Red at D4 (24); Black at C4 (23) and E4 (25); White at D5 (17).
    s.board[24] = 2;
    s.board[23] = 0;
    s.board[25] = 0;
    s.board[17] = 1;
    expect([contact(s, m, 0, 2), contact(s, m, 1, 2)]).toEqual([2, 1]);
    expect(surrenderTargets(s, m, 2)).toEqual([0]);
    // Occupied by Black, Red may switch only to someone touching it more: nobody here.
    s.players[2].occupier = 0;
    expect(surrenderTargets(s, m, 2)).toEqual([]);
    // A faction that occupies another cannot surrender.
    expect(surrenderTargets(s, m, 0)).toEqual([]);
  });
});

describe('Tribal Go cards', () => {
  function tribalState(): TribalState {
    const s = tribal3(Array(9).fill(null), 0);
    s.cards = true;
    s.hand = [];
    s.playable = [];
    return s;
  }

  it('prompts only a Reject holder, with no "let it stand" (the window runs out by itself)', async () => {
    const { tribal } = await import('../src/systems/tribal');
    const s = tribalState();
    s.phase = 'reaction';
    s.reaction = { mover: 1, placed: [4], asked: true, can_reject: true, can_replace: true };
    expect(tribal.buttons(s).map((b) => b.id)).toEqual(['reject', 'reject-replace']);
    expect(tribal.buttons(s)[0].input).toEqual({ type: 'react', answer: 'reject' });
    const names = { player: (p: number) => `P${p}`, label: (n: number) => `n${n}` } as never;
    expect(tribal.status?.(s, names, true)).toMatch(/Reject the move before the time runs out/);
    // A seat holding no Reject is not asked: nothing to click, only the countdown to watch.
    s.reaction = { mover: 1, placed: [4], asked: false, can_reject: false, can_replace: false };
    expect(tribal.buttons(s)).toEqual([]);
    expect(tribal.status?.(s, names, false)).toMatch(/may reject the move until the time runs out/);
  });

  it('offers the playable cards after the roll, and one button per kind over the hand limit', async () => {
    const { tribal } = await import('../src/systems/tribal');
    const s = tribalState();
    s.dice = [3, 3];
    s.playable = ['extra_move'];
    expect(tribal.buttons(s).map((b) => b.id)).toEqual(['card-extra_move', 'forgo']);
    s.dice = null;
    s.phase = 'discard';
    s.hand = ['no_move', 'reject', 'no_move', 'points3'];
    expect(tribal.buttons(s).map((b) => b.input)).toEqual([
      { type: 'discard', card: 'no_move' }, { type: 'discard', card: 'reject' }, { type: 'discard', card: 'points3' },
    ]);
    s.phase = 'return';
    expect(tribal.buttons(s)[0].input).toEqual({ type: 'return', card: 'no_move' });
  });

  it('turns two clicks into a Move card step: one of the player’s stones, then an empty node', async () => {
    const { tribal } = await import('../src/systems/tribal');
    const s = tribalState();
    s.phase = 'card';
    s.card_play = { card: 'move_two', placed: [], pair: null, steps_left: 2 };
    s.board[0] = 0;
    s.board[1] = 1;
    expect(tribal.clickInput?.(s, 4, 0, null)).toEqual({ say: expect.stringMatching(/your stones first/) });
    expect(tribal.clickInput?.(s, 0, 0, null)).toEqual({ pick: 0 });
    expect(tribal.clickInput?.(s, 1, 0, 0)).toEqual({ say: expect.stringMatching(/empty/) });
    expect(tribal.clickInput?.(s, 4, 0, 0)).toEqual({ input: { type: 'move_stone', from: 0, node: 4 } });
    s.card_play.card = 'extra_move';
    expect(tribal.clickInput?.(s, 4, 0, null)).toBeNull();
  });

  it('words the card events without naming a drawn card', async () => {
    const { describeTribal } = await import('../src/systems/tribal');
    const names = { player: (p: number) => ['Black', 'White', 'Red'][p], label: (n: number) => `n${n}` } as never;
    expect(describeTribal([
      { event: 'drew', player: 0, doubles: true },
      { event: 'card_played', player: 1, card: 'move_anywhere' },
      { event: 'rejected', player: 2, mover: 1, card: 'reject' },
    ], names)).toEqual([
      'Black drew a card (a pair)',
      'White played Move Anywhere',
      "Red rejected White's move with Reject: it is undone",
    ]);
  });
});
