import { describe, expect, it } from 'vitest';
import type { TournamentView } from '../src/pages/tournaments/types';
import { clockText, crossLinks, crossTable, gamesInPlay, readCreate, type CreateInput } from '../src/pages/tournaments/words';

/** An arena of three after a few games, as GET /api/tournaments/{id} answers. */
function arena(): TournamentView {
  return {
    summary: { id: 8, name: 'Blitz arena', system: 'classic', map: 'square:9', format: 'arena', players_per_game: 2, rounds: 0, state: 'running', entrants: 3, max_entrants: 8, start_ms: null, creator: 'ann', time_control_text: '3 min + 2 s' },
    rules_text: [],
    entrants: [
      { id: 1, name: 'ann', rating: 1500, bot_level: null, withdrawn_after: null, user_id: 10 },
      { id: 2, name: 'bob', rating: 1480, bot_level: null, withdrawn_after: null, user_id: 11 },
      { id: 3, name: 'bot', rating: 1100, bot_level: 1, withdrawn_after: null, user_id: null },
    ],
    rounds: [
      { number: 1, tables: [{ table: 1, seats: [1, 2], game_id: 41, places: [1, 2] }], byes: [], absent: [], started_ms: 1, finished_ms: 2 },
      { number: 2, tables: [{ table: 1, seats: [2, 1], game_id: 42, places: [1, 2] }], byes: [], absent: [], started_ms: 3, finished_ms: 4 },
      { number: 3, tables: [{ table: 1, seats: [1, 3], game_id: 43, places: null }], byes: [], absent: [], started_ms: 5, finished_ms: null },
    ],
    standings: {
      tie_breaks: [],
      rows: [
        { entrant: 1, place: 1, points: 1, tie_breaks: [], games: 2, byes: 0, eliminated: false, why: null },
        { entrant: 2, place: 1, points: 1, tie_breaks: [], games: 2, byes: 0, eliminated: false, why: null },
        { entrant: 3, place: 3, points: 0, tie_breaks: [], games: 0, byes: 0, eliminated: false, why: null },
      ],
    },
    crosstable: [
      [null, { text: '+−', games: [{ result: '+', game_id: 41 }, { result: '−', game_id: 42 }] }, null],
      [{ text: '−+', games: [{ result: '−', game_id: 41 }, { result: '+', game_id: null }] }, null, null],
      [null, null, null],
    ],
    may_join: true, may_leave: false, may_start: false, why_not: null,
    arena: { started_ms: 0, ends_ms: 300_000, ends_in_ms: 125_000 },
  };
}

describe('crosstable links', () => {
  it('links each result of a cell to its own game, and leaves a result with no game as text', () => {
    const t = crossTable(arena());
    expect(t.rows[0]!.links[1]).toEqual([{ text: '+', game: 41 }, { text: '−', game: 42 }]);
    expect(t.rows[1]!.links[0]).toEqual([{ text: '−', game: 41 }, { text: '+', game: null }]);
    expect(t.rows[0]!.links[0]).toEqual([]);
    expect(t.rows[0]!.cells).toEqual(['', '+−', '']);
    expect(t.rows[0]!.games).toEqual([null, 41, null]);
  });

  it('reads the older single-game cell and cells without games', () => {
    expect(crossLinks({ text: '+', game_id: 9 })).toEqual([{ text: '+', game: 9 }]);
    expect(crossLinks({ text: '=' })).toEqual([]);
    expect(crossLinks('1')).toEqual([]);
    expect(crossLinks(null)).toEqual([]);
    expect(crossLinks({ games: [{ result: 5, game_id: 'x' }] as never })).toEqual([{ text: '?', game: null }]);
  });
});

describe('arenas', () => {
  it('counts down in minutes and seconds, hours when long', () => {
    expect(clockText(125_000)).toBe('2:05');
    expect(clockText(59_001)).toBe('1:00');
    expect(clockText(3_723_000)).toBe('1:02:03');
    expect(clockText(-5)).toBe('0:00');
  });

  it('lists the games in play, latest first', () => {
    expect(gamesInPlay(arena()).map((t) => t.game_id)).toEqual([43]);
  });

  it('reads the arena length instead of rounds', () => {
    const input: CreateInput = {
      name: 'Blitz', format: 'arena', rounds: '3', playersPerGame: '2', minEntrants: '2', maxEntrants: '16',
      start: '', minRating: '', maxRating: '', points: '', advance: '', bots: '', arenaMinutes: '45',
    };
    expect(readCreate(input)).toMatchObject({ format: 'arena', rounds: 0, arena_minutes: 45 });
    expect(() => readCreate({ ...input, arenaMinutes: '4' })).toThrow(/Arena length \(minutes\): between 5 and 1440/);
    expect(() => readCreate({ ...input, arenaMinutes: '' })).toThrow(/Arena length/);
    expect(readCreate({ ...input, format: 'swiss' }).arena_minutes).toBeUndefined();
  });
});
