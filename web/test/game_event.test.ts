import { describe, expect, it } from 'vitest';
import { eventText } from '../src/pages/game/event';

describe('the tournament a game is played in', () => {
  it('names the round and the tournament as players say it', () => {
    expect(eventText({ tournament: 7, name: 'Friday Swiss', round: 2, table: 3 })).toBe('Round 2 of Friday Swiss');
    expect(eventText({ tournament: 1, name: 'Club [night]', round: 11, table: 1 })).toBe('Round 11 of Club [night]');
  });
});
