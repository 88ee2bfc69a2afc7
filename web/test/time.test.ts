import { describe, expect, it } from 'vitest';
import { durationText, spanText, timeControlText } from '../src/time';

describe('time as players read it', () => {
  it('reads clocks of seconds to days', () => {
    expect(durationText(42_000)).toBe('42 s');
    expect(durationText(185_000)).toBe('3:05');
    expect(durationText((5 * 3600 + 10 * 60) * 1000)).toBe('5 h 10 min');
    expect(durationText((2 * 86_400 + 4 * 3600 + 59) * 1000)).toBe('2 d 4 h');
    expect(durationText(3 * 86_400_000)).toBe('3 d');
    expect(durationText(-5)).toBe('0 s');
  });

  it('names time controls', () => {
    expect(spanText(86_400)).toBe('1 day');
    expect(timeControlText({ kind: 'correspondence', move_seconds: 3 * 86_400, max_seconds: 7 * 86_400, weekends_off: true }))
      .toBe('3 days per move (at most 7 days), weekends off');
    expect(timeControlText({ kind: 'fischer', main_seconds: 600, increment_seconds: 10 })).toBe('10 min + 10 s per move');
    expect(timeControlText({ kind: 'canadian', main_seconds: 600, stones: 10, period_seconds: 300 })).toBe('10 min + 10 moves in 5 min');
  });
});
