import { describe, expect, it } from 'vitest';
import { showsPlayerClocks } from '../src/clocks';
import type { ClockView } from '../src/protocol';
import { passEndsPlay, systemUi } from '../src/systems';
import type { BaseState } from '../src/types';
import { actionWords } from '../src/words';

const clock = (control: ClockView['control']): ClockView => ({ control, remaining_ms: [0, 0], periods_left: [0, 0], deadline_ms: null, left_ms: null });

describe('the players table\'s Time column', () => {
  it('shows only under a time limit', () => {
    expect(showsPlayerClocks(clock({ kind: 'classic', time: { kind: 'none' } }), 2)).toBe(false);
    expect(showsPlayerClocks(clock({ kind: 'per_turn', turn_ms: 20_000, decision_ms: 0 }), 2)).toBe(false);
    expect(showsPlayerClocks(clock({ kind: 'none' }), 2)).toBe(false);
    expect(showsPlayerClocks(null, 2)).toBe(false);
    expect(showsPlayerClocks(clock({ kind: 'classic', time: { kind: 'absolute', main_seconds: 60 } }), 2)).toBe(true);
    expect(showsPlayerClocks(clock({ kind: 'classic', time: { kind: 'absolute', main_seconds: 60 } }), 3), 'a clock per player').toBe(false);
  });
});

describe('a pass that ends play', () => {
  const state = (passes: number, players = 2, extra: Record<string, unknown> = {}) =>
    ({ consecutive_passes: passes, players: Array.from({ length: players }, (_, i) => ({ player: i })), outcome: null, ...extra }) as unknown as BaseState;
  it('is the last of the passes in a row each system counts', () => {
    expect(passEndsPlay(systemUi('classic'), state(0))).toBe(false);
    expect(passEndsPlay(systemUi('classic'), state(1))).toBe(true);
    expect(passEndsPlay(systemUi('tribal'), state(1, 3))).toBe(false);
    expect(passEndsPlay(systemUi('tribal'), state(2, 3))).toBe(true);
    expect(passEndsPlay(systemUi('gengo'), state(1))).toBe(false);
    expect(passEndsPlay(systemUi('gengo'), state(2))).toBe(true);
    expect(passEndsPlay(systemUi('gobeyond'), state(1, 2, { passes_to_end: 3 }))).toBe(false);
    expect(passEndsPlay(systemUi('gobeyond'), state(2, 2, { passes_to_end: 3 }))).toBe(true);
    expect(passEndsPlay(systemUi('way-of-go'), state(1))).toBe(true);
  });
  it('never once the game is over', () => {
    expect(passEndsPlay(systemUi('classic'), { ...state(1), outcome: {} } as unknown as BaseState)).toBe(false);
  });
});

describe('review wording', () => {
  it('words recorded actions for players', () => {
    expect(actionWords({ type: 'surrender', nodes: [] })).toBe('surrendered nothing');
    expect(actionWords({ type: 'surrender', nodes: [3, 4] })).toBe('surrendered 2 stones');
    expect(actionWords({ type: 'place', at: 'E4' })).toBe('placed at E4');
    expect(actionWords({ type: 'pass' })).toBe('passed');
    expect(actionWords({ type: 'cleanup_timeout' })).toBe('ran out of Clean-Up time');
    expect(actionWords({ type: 'pie_stone', at: 'C3' })).toBe('pie stone C3');
  });
  it('counts captures in the singular', () => {
    const p = { prisoners: 1 } as never;
    expect(systemUi('classic').standing(p)).toBe('captured 1 stone');
    expect(systemUi('gengo').standing(p)).toBe('captured 1 stone');
  });
});
