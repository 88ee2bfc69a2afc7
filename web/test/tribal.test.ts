import { describe, expect, it } from 'vitest';
import { undoNote } from '../src/pages/game/undo';
import type { TribalEvent } from '../src/protocol';
import { type TribalCarry, describeTribal } from '../src/systems/tribal';
import type { Naming } from '../src/words';

const names: Naming = {
  player: (seat) => ['Black (ada)', 'White (rita)', 'Red (bot)'][seat] ?? `seat ${seat}`,
  label: (node) => `N${node}`,
};

describe('Tribal Go log', () => {
  it('numbers each move across updates, not the dice, draws and spoils around it', () => {
    const carry: TribalCarry = {};
    const first: TribalEvent[] = [
      { event: 'rolled', player: 0, dice: [3, 5], range: 5, doubles: false },
      { event: 'placed', player: 0, node: 4, handicap: false },
    ];
    const second: TribalEvent[] = [
      { event: 'not_rejected', mover: 0 },
      { event: 'passed', player: 1, automatic: false, consecutive: 1 },
      { event: 'drew', player: 1, doubles: false },
    ];
    expect(describeTribal(first, names, carry)).toEqual(['Black (ada) rolled 3 and 5: range 5', '1. Black (ada) played N4']);
    expect(describeTribal(second, names, carry)).toEqual(['2. White (rita) passed (1 in a row)', 'White (rita) drew a card']);
  });
});

describe('undo notes', () => {
  it('name the seat as the page does, never "Seat 2"', () => {
    expect(undoNote({ kind: 'declined', seat: 1 }, names)).toBe('White (rita) declined the undo');
    expect(undoNote({ kind: 'took_back', seat: 0 }, names)).toBe('Black (ada) took back a move');
    expect(undoNote({ kind: 'lapsed' }, names)).toMatch(/lapsed/);
  });
});
