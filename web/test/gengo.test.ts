import { describe, expect, it } from 'vitest';
import { describeGengo, describeSpace, describeStone, gengo, stoneScale } from '../src/systems/gengo';
import { systemUi } from '../src/systems/index';
import type { GengoState } from '../src/protocol';
import type { Naming } from '../src/words';
import { gridMap } from './fixtures';
import { hoverMarks, markers } from './markers';

const names: Naming = { player: (p) => ['Black', 'White'][p], label: (n) => `N${n}` };

/** A 5×5 Gengo state: Black on the centre (12), its 3×3 block covered, White on 0. */
function state(): GengoState {
  const board: (number | null)[] = Array(25).fill(null);
  board[12] = 0;
  board[0] = 1;
  const cover: (number | null)[] = Array(25).fill(null);
  for (const i of [6, 7, 8, 11, 12, 13, 16, 17, 18]) cover[i] = 0;
  for (const i of [0, 1, 5]) cover[i] = 1;
  cover[6] = 2;
  const blocked: (string | null)[] = cover.map((c, i) => (board[i] !== null ? 'stone' : c !== null ? 'overlap' : null));
  blocked[24] = 'suicide';
  return {
    map: { name: 'square 5x5', spec: 'square:5', nodes: 25 },
    rules: { system: 'gengo' },
    to_move: 0,
    players: [
      { player: 0, name: '', color: 'Black', stones: ['C3'], prisoners: 0, stone_score: 1, area_score: 8, lost: 0, score: 1, resigned: false },
      { player: 1, name: '', color: 'White', stones: ['A5'], prisoners: 2, stone_score: 1.5, area_score: 3.5, lost: 0, score: 1.5, resigned: false },
    ],
    board,
    outcome: null,
    consecutive_passes: 2,
    cover,
    area: cover.map((c) => (c === 0 || c === 1 ? c : null)),
    groups: [
      { player: 0, stones: [12], liberties: [2, 10, 14, 22] },
      { player: 1, stones: [0], liberties: [2, 10] },
    ],
    blocked,
    stone_radius: 1,
    status: 'playing',
    moves_played: 2,
    turn_limit: 0,
    ko: null,
    hash: '',
  };
}

describe('Gengo in the web client', () => {
  it('is the UI of the gengo system', () => {
    expect(systemUi('gengo')).toBe(gengo);
  });

  it('words captures, own losses and passes', () => {
    const lines = describeGengo(
      [
        { event: 'placed', player: 1, node: 4 },
        { event: 'captured', player: 1, owner: 0, nodes: [12] },
        { event: 'captured', player: 1, owner: 1, nodes: [0, 1] },
        { event: 'passed', player: 0, consecutive: 2 },
        { event: 'placed', player: 0, node: 3 },
        { event: 'captured', player: 0, owner: 0, nodes: [3] },
      ],
      names,
    );
    expect(lines).toEqual([
      'White played N4',
      'White captured 1 stone (N12)',
      'White lost 2 stones of their own (N0, N1): friendly fire',
      'Black passed (2 in a row: one more ends the game)',
      'Black played N3',
      'Black lost 1 stone of their own (N3): suicide',
    ]);
  });

  it('draws stones as large as their radius over the map spacing', () => {
    const s = state();
    expect(stoneScale(s, gridMap(5, 5))).toBeCloseTo(1 / 0.47, 5);
    s.stone_radius = 0.5;
    expect(stoneScale(s, gridMap(5, 5))).toBeCloseTo(0.5 / 0.47, 5);
    (s as { stone_radius?: number }).stone_radius = undefined;
    expect(stoneScale(s, gridMap(5, 5))).toBe(1);
  });

  it('says why a space is closed, and whose liberty an open one is', () => {
    const s = state();
    expect(describeSpace('C4', 7, s, names)).toBe('C4: inside the overlap of Black\'s stones — no stone may go here · counts for Black in area');
    expect(describeSpace('B4', 6, s, names)).toMatch(/overlap of both players/);
    expect(describeSpace('E1', 24, s, names)).toMatch(/suicide is off/);
    expect(describeSpace('C5', 2, s, names)).toBe('C5: open · a liberty of Black and White');
    expect(describeSpace('E5', 4, s, names)).toBe('E5: open');
    expect(describeStone(12, s)).toBe('a group of 1 stone with 4 liberties');
    expect(describeStone(3, s)).toBeNull();
    expect([...(hoverMarks(gengo, 12, s, gridMap(5, 5)) ?? [])]).toEqual([2, 10, 14, 22]);
    expect(hoverMarks(gengo, 3, s, gridMap(5, 5))).toBeUndefined();
  });

  it('tints covered empty spaces, shows area only at the end, and counts both scores', () => {
    const s = state();
    const map = gridMap(5, 5);
    const m = markers(gengo, s, map);
    expect(m.covered?.[7]).toBe(0);
    expect(m.covered?.[12]).toBeNull();
    expect(m.covered?.[6]).toBe(2);
    expect(m.claims).toBeUndefined();
    s.outcome = { scores: [1, 1.5], ranking: [1, 0], places: [2, 1], reason: 'passes' };
    expect(markers(gengo, s, map).claims?.[7]).toBe(0);
    expect(gengo.columns.map((c) => c.cell(s.players[1], s))).toEqual(['1.5', '3.5', '2']);
    expect(gengo.passTitle(s)).toMatch(/third pass/);
    expect(gengo.hasSgf(2)).toBe(false);
  });
});
