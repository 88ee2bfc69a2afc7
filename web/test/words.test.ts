import { describe, expect, it } from 'vitest';
import { describeClassic, describeClassicEvents } from '../src/systems/classic';
import { describeGoBeyond } from '../src/systems/gobeyond';
import { type Naming, ratingText } from '../src/words';

const names: Naming = {
  player: (p) => ['Black', 'White', 'Red', 'Blue'][p],
  label: (n) => `N${n}`,
};

describe('event log in plain words', () => {
  it('folds captures and a reservation into the occupying line', () => {
    const lines = describeGoBeyond(
      [
        { event: 'turn_started', turn: 7, player: 3 },
        { event: 'income', player: 3, claimed: 4, points: 4 },
        { event: 'occupied', player: 3, node: 5, cost: 10 },
        { event: 'captured', player: 3, victim: 2, nodes: [6, 7, 8], award: 30 },
        { event: 'claims_changed', changes: [] },
        { event: 'reserved', player: 3, node: 6 },
      ],
      names,
    );
    expect(lines).toEqual(['7. Blue occupied N5 and captured 3 stones of Red: +30; N6 is reserved · income +4']);
  });

  it('numbers each turn as the game counts them, income folded in or on its own', () => {
    const lines = describeGoBeyond(
      [
        { event: 'turn_started', turn: 1, player: 0 },
        { event: 'occupied', player: 0, node: 2, cost: 10 },
        { event: 'turn_started', turn: 2, player: 1 },
        { event: 'income', player: 1, claimed: 3, points: 3 },
        { event: 'skipped', player: 1, timeout: true },
        { event: 'income', player: 0, claimed: 2, points: 2 },
      ],
      names,
    );
    expect(lines).toEqual([
      '1. Black occupied N2 (−10)',
      '2. White ran out of time: turn skipped · income +3',
      'Black earned +2 from 2 claimed nodes',
    ]);
  });

  it('carries a turn begun in one update to the action of the next', () => {
    const carry = {};
    expect(describeGoBeyond([{ event: 'occupied', player: 0, node: 1, cost: 10 }, { event: 'turn_started', turn: 3, player: 1 }, { event: 'income', player: 1, claimed: 3, points: 3 }], names, carry))
      .toEqual(['Black occupied N1 (−10)']);
    expect(describeGoBeyond([{ event: 'occupied', player: 1, node: 4, cost: 10 }], names, carry)).toEqual(['3. White occupied N4 (−10) · income +3']);
    // A turn the game ends in keeps its income as a line of its own.
    describeGoBeyond([{ event: 'turn_started', turn: 4, player: 0 }, { event: 'income', player: 0, claimed: 2, points: 2 }], names, carry);
    expect(describeGoBeyond([{ event: 'game_over', reason: 'passes', ranking: [0, 1], scores: [1, 0] }], names, carry))
      .toEqual(['Black earned +2 from 2 claimed nodes', 'Game over: 1. Black (1), 2. White (0)']);
  });

  it('says skips, time-outs, passes, Clean-Up and the end', () => {
    const lines = describeGoBeyond(
      [
        { event: 'skipped', player: 0, timeout: false },
        { event: 'skipped', player: 1, timeout: true },
        { event: 'passed', player: 2, automatic: false, consecutive: 1 },
        { event: 'passed', player: 3, automatic: true, consecutive: 2 },
        { event: 'clean_up_started', players: [0, 1] },
        { event: 'surrendered', player: 0, nodes: [1, 2], timeout: false },
        { event: 'stones_removed', owner: 0, nodes: [1, 2], claimant: 1, award: 20 },
        { event: 'final_bonus', player: 1, claimed: 3, points: 30 },
        { event: 'game_over', reason: 'passes', ranking: [1, 0], scores: [190, 250.2] },
      ],
      names,
    );
    expect(lines).toEqual([
      'Black skipped',
      'White ran out of time: turn skipped',
      'Red passed (1 in a row)',
      'Clean-Up: each player chooses stones to surrender',
      'Black surrendered 2 stones',
      '2 stones of Black removed: White +20',
      'White: final bonus +30 for 3 claimed nodes',
      'Game over: 1. White (250.2), 2. Black (190)',
    ]);
  });

  it('describes classic moves with their captures', () => {
    expect(describeClassic({ player: 0, type: 'place', at: 'D4', node: 3 }, names, 2)).toBe('Black played D4 and captured 2 stones');
    expect(describeClassic({ player: 1, type: 'pass' }, names, 0)).toBe('White passed');
  });

  it('words classic events one line per move, the captures folded into the placement', () => {
    expect(describeClassicEvents([
      { event: 'placed', player: 0, node: 3 },
      { event: 'captured', player: 0, owner: 1, nodes: [4, 5] },
      { event: 'passed', player: 1, consecutive: 1 },
      { event: 'passed', player: 0, consecutive: 2 },
      { event: 'scoring_started' },
      { event: 'dead_marked', player: 1, nodes: [3], proposed: false },
      { event: 'accepted', player: 0, timeout: true },
      { event: 'game_over', outcome: { scores: [1, 2], ranking: [1, 0], places: [2, 1], reason: 'passes' } },
    ], names)).toEqual([
      'Black played N3 and captured 2 stones',
      'White passed',
      'Black passed',
      'White marked 1 stone dead',
      'Black ran out of time',
    ]);
  });
});

describe('ratingText', () => {
  it('marks provisional ratings and signs changes', () => {
    expect(ratingText({ value: 1500, provisional: true })).toBe('1500?');
    expect(ratingText({ value: 1623, provisional: false, change: 14 })).toBe('1623 +14');
    expect(ratingText({ value: 1480, provisional: false, change: -20 })).toBe('1480 −20');
    expect(ratingText(null)).toBe('');
    expect(ratingText({ value: 1780, provisional: false, rank: '7k' })).toBe('7k (1780)');
    expect(ratingText({ value: 2510, provisional: true, rank: '1d', change: 30 })).toBe('1d? (2510) +30');
  });
});

describe('Tribal Go log', () => {
  it('says the dice, the shared spoils and the count', async () => {
    const { describeTribal } = await import('../src/systems/tribal');
    const lines = describeTribal(
      [
        { event: 'rolled', player: 0, dice: [3, 3], range: 3, doubles: true },
        { event: 'placed', player: 0, node: 5, handicap: false },
        { event: 'captured', player: 0, nodes: [6, 7, 8], owners: [1, 1, 1], shares: [[0, 2], [2, 1]] },
        { event: 'filled_in', team: 1, territory: 5, prisoners: 7, left: 0, overflow: [[0, 2]] },
      ],
      names,
    );
    expect(lines).toEqual([
      'Black rolled 3 and 3: range 3 (a pair)',
      '1. Black played N5',
      '3 stones captured by Black: Black +2, Red +1 prisoners',
      'White: 5 points of territory, 7 prisoners of its colours filled in, 0 left; overflow: Black +2',
    ]);
  });
});
