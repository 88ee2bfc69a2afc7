import { describe, expect, it } from 'vitest';
import { systemUi } from '../src/systems/index';
import { besiege, describeWay, wayOfGo } from '../src/systems/way_of_go';
import type { WayState } from '../src/protocol';
import type { Naming } from '../src/words';
import { markers } from './markers';

const names: Naming = { player: (p) => ['Ann', 'Bob'][p], label: (n) => `N${n}` };

/** A 3×3 position: seat 0 plays White (the pie's choice), with a stack of 3 on node 4 whose
 *  top stone reaches 1 and 7, the whole stack capturing on 5; seat 1 (Black) on 5. */
function state(phase = 'playing'): WayState {
  const board: (number | null)[] = Array(9).fill(null);
  board[4] = 0;
  board[5] = 1;
  const height = Array(9).fill(0);
  height[4] = 3;
  height[5] = 1;
  return {
    map: { name: '3x3', spec: 'square:3', nodes: 9 },
    rules: { system: 'besiege' },
    to_move: 0,
    players: [
      { player: 0, name: 'Ann', color: 'White', colour: 'white', stones: ['B2'], captures: 2, contract: null, stone_count: 3, resigned: false },
      { player: 1, name: 'Bob', color: 'Black', colour: 'black', stones: ['C2'], captures: 1, contract: null, stone_count: 1, resigned: false },
    ],
    board,
    colour: board.map((b) => (b === 0 ? 'white' : b === 1 ? 'black' : null)),
    height,
    ranges: height.map((h) => Array.from({ length: h }, (_, k) => k + 1)),
    attacked: [0, 1, 0, 2, 0, 0, 0, 3, 0],
    drops: [0, 2, 6, 8],
    moves: [
      { from: 4, count: 1, dir: 0, to: 1, landing: 'empty' },
      { from: 4, count: 1, dir: 2, to: 7, landing: 'empty' },
      { from: 4, count: 3, dir: 1, to: 5, landing: 'capture' },
    ],
    dropped: null,
    outcome: null,
    consecutive_passes: 0,
    phase,
    status: 'playing',
    turns: 0,
    turn_limit: 0,
    hash: '',
  };
}

describe('The Way of Go and BeSiege in the web client', () => {
  it('are registered under their names', () => {
    expect(systemUi('way-of-go')).toBe(wayOfGo);
    expect(systemUi('besiege')).toBe(besiege);
  });

  it('colours each seat as the pie decided', () => {
    const s = state();
    expect(besiege.seatStyle?.(s, 0)).toBe(1);
    expect(besiege.seatStyle?.(s, 1)).toBe(0);
    expect(markers(besiege, s, undefined as never).palette).toEqual([1, 0]);
  });

  it('picks a stack, lifts fewer on a second click, and moves to a listed destination', () => {
    const s = state();
    // The whole stack first: its only move is the capture on 5.
    expect(besiege.clickInput?.(s, 4, 0, null)).toEqual({ pick: 4 });
    let m = markers(besiege, s, undefined as never, 4);
    expect([...(m.targets ?? [])]).toEqual([5]);
    expect([...(m.reachable ?? [])]).toEqual([]);
    expect(m.lifted).toBe(4);
    // Clicking it again lifts two, then one: the top stone's moves are 1 and 7.
    expect(besiege.clickInput?.(s, 4, 0, 4)).toEqual({ pick: 4 });
    expect(besiege.clickInput?.(s, 4, 0, 4)).toEqual({ pick: 4 });
    m = markers(besiege, s, undefined as never, 4);
    expect([...(m.reachable ?? [])].sort()).toEqual([1, 7]);
    expect(besiege.status?.(s, names, true)).toMatch(/Moving 1 of 3 stones from N4 \(range 1\)/);
    expect(besiege.clickInput?.(s, 7, 0, 4)).toEqual({ input: { type: 'move', from: 4, to: 7, count: 1, dir: 2 } });
    // A fourth click on the stack lets it go.
    markers(besiege, s, undefined as never, 4);
    expect(besiege.clickInput?.(s, 4, 0, 4)).toEqual({ pick: null });
  });

  it('drops on neutral nodes only, and says why not elsewhere', () => {
    const s = state();
    markers(besiege, s, undefined as never, null);
    expect(besiege.clickInput?.(s, 0, 0, null)).toEqual({ input: { type: 'drop', node: 0 } });
    expect(besiege.clickInput?.(s, 1, 0, null)?.say).toMatch(/attacked/);
    expect(besiege.clickInput?.(s, 5, 0, null)?.say).toMatch(/opponent stone/);
    expect(besiege.describeEmpty('A1', 7, s, names)).toMatch(/attacked by both colours/);
    expect(besiege.describeEmpty('A1', 0, s, names)).toMatch(/neutral/);
    // Attacked empty nodes are tinted: Black 0, White 1, both 2.
    expect(markers(besiege, s, undefined as never, null).covered).toEqual([null, 0, null, 1, null, null, null, 2, null]);
    expect(markers(wayOfGo, s, undefined as never, null).covered).toBeUndefined();
  });

  it('places the pie Black, Black, White, then offers the choice of side', () => {
    const s = state('pie');
    s.board = Array(9).fill(null);
    s.colour = Array(9).fill(null);
    expect(wayOfGo.clickInput?.(s, 0, 0, null)).toEqual({ input: { type: 'pie_stone', node: 0, colour: 'black' } });
    s.colour[0] = 'black';
    s.colour[1] = 'black';
    s.board[0] = 0;
    s.board[1] = 0;
    expect(wayOfGo.clickInput?.(s, 2, 0, null)).toEqual({ input: { type: 'pie_stone', node: 2, colour: 'white' } });
    const c = state('choose_side');
    // The choice is a dialog for the seat that makes it (drawn in the browser tests), nothing
    // for the other seat or in other phases.
    expect(wayOfGo.panel?.(c, names, 1, () => {})).toBeNull();
    expect(wayOfGo.panel?.(state('playing'), names, 0, () => {})).toBeNull();
    expect(wayOfGo.buttons(state('move_after_drop')).map((b) => b.id)).toEqual(['end-turn']);
  });

  it('passes only when nothing else is possible', () => {
    const s = state();
    expect(wayOfGo.passAllowed?.(s)).toBe(false);
    s.drops = [];
    s.moves = [];
    expect(wayOfGo.passAllowed?.(s)).toBe(true);
  });

  it('words every event', () => {
    const lines = describeWay(
      [
        { event: 'pie_stone', player: 0, node: 3, colour: 'white' },
        { event: 'side_chosen', player: 1, colour: 'black' },
        { event: 'moved', player: 0, from: 4, to: 1, count: 2, landing: 'stack' },
        { event: 'captured', player: 1, from: 5, to: 4, count: 1, removed: 1, lost: 1 },
        { event: 'contracts_raised', contracts: [6, 6] },
        { event: 'passed', player: 0 },
      ],
      names,
    );
    expect(lines).toEqual([
      'Ann placed a White pie stone at N3',
      'Bob chose Black; White moves first',
      'Ann moved 2 stones N4–N1 onto its own stack',
      'Bob captured at N4 from N5: 1 stone taken, 1 of its own sacrificed',
      'Both reached their contracts in one round: raised to 6 and 6',
      'Ann had no possible turn and passed',
    ]);
  });
});
