import { describe, expect, it } from 'vitest';
import { soundsFor } from '../src/sounds';

const at = (seq: number, myTurn: boolean, mySecondsLeft: number | null = null) => ({ seq, myTurn, mySecondsLeft });

describe('sounds', () => {
  it('a new action clicks, and a turn that becomes mine rings once', () => {
    expect(soundsFor(at(3, false), at(4, true))).toEqual(['stone', 'your-turn']);
    expect(soundsFor(at(4, true), at(4, true))).toEqual([]);
  });

  it('low time warns once when my clock crosses 10 s', () => {
    expect(soundsFor(at(4, true, 11), at(4, true, 10))).toEqual(['low-time']);
    expect(soundsFor(at(4, true, 10), at(4, true, 9))).toEqual([]);
    expect(soundsFor(at(4, false, null), at(4, false, null))).toEqual([]);
  });
});
