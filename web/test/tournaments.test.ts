import { describe, expect, it } from 'vitest';
import type { TournamentView } from '../src/pages/tournaments/types';
import {
  anyResult,
  crossCellText,
  crossTable,
  ordinal,
  pointsText,
  ratingLine,
  readCreate,
  standingLines,
  startText,
  tableText,
  tieBreakLong,
  tieBreakShort,
  type CreateInput,
} from '../src/pages/tournaments/words';

/** A Swiss of four after two rounds, as GET /api/tournaments/{id} answers (the contract's shape). */
function swiss(): TournamentView {
  return {
    summary: { id: 7, name: 'Friday Swiss', system: 'classic', map: 'square:9', format: 'swiss', players_per_game: 2, rounds: 3, state: 'running', entrants: 4, max_entrants: 8, start_ms: null, creator: 'ann', time_control_text: 'no clock' },
    settings: { min_rating: 1200, max_rating: null },
    rules_text: ['Swiss, 3 rounds.', 'Ties: SOS, then SODOS.'],
    entrants: [
      { id: 1, name: 'ann', rating: 1500, bot_level: null, withdrawn_after: null, user_id: 10 },
      { id: 2, name: 'bob', rating: 1480, bot_level: null, withdrawn_after: 2, user_id: 11 },
      { id: 3, name: '', rating: 1100, bot_level: 1, withdrawn_after: null, user_id: null },
      { id: 4, name: 'bot 2', rating: 1300, bot_level: 2, withdrawn_after: null, user_id: null },
    ],
    rounds: [
      { number: 1, tables: [{ table: 1, seats: [1, 2], game_id: 31, places: [1, 2] }, { table: 2, seats: [3, 4], game_id: 32, places: [2, 1] }], byes: [], absent: [], started_ms: 1, finished_ms: 2 },
      { number: 2, tables: [{ table: 1, seats: [4, 1], game_id: 33, places: null }], byes: [2], absent: [3], started_ms: 3, finished_ms: null },
    ],
    standings: {
      tie_breaks: ['sos', 'sodos'],
      rows: [
        { entrant: 1, place: 1, points: 2, tie_breaks: [3, 1], games: 2, byes: 0, eliminated: false, why: 'tied on 2 points with bot 2: ahead on SOS 3 to 2' },
        { entrant: 4, place: 2, points: 2, tie_breaks: [2, 0.5], games: 2, byes: 0, eliminated: false, why: null },
        { entrant: 2, place: 3, points: 1, tie_breaks: [2, 0], games: 1, byes: 1, eliminated: false, why: null },
        { entrant: 3, place: 3, points: 1, tie_breaks: [2, 0], games: 1, byes: 0, eliminated: false, why: null },
      ],
    },
    crosstable: [
      [null, { text: '+', game_id: 33 }, '1', null],
      ['−', null, null, '+'],
      ['0', null, null, 0.5],
      [null, '−', 0.5, null],
    ],
    may_join: false, may_leave: true, may_start: false, why_not: 'It has started: no more entries.',
  };
}

describe('standings in words', () => {
  it('gives each row its place, name, points, tie-breaks and notes, and keeps the why of a tie', () => {
    const lines = standingLines(swiss());
    expect(lines.map((l) => l.place)).toEqual(['1', '2', '3=', '3=']);
    expect(lines.map((l) => l.name)).toEqual(['ann', 'bot 2', 'bob', 'bot (level 1)']);
    expect(lines[0]!.tieBreaks).toEqual(['3', '1']);
    expect(lines[1]!.tieBreaks).toEqual(['2', '0.5']);
    expect(lines[0]!.why).toBe('tied on 2 points with bot 2: ahead on SOS 3 to 2');
    expect(lines[1]!.why).toBeNull();
    expect(lines[2]!.notes).toEqual(['withdrew after round 2', '1 bye']);
  });

  it("puts names where the server's reason names an entrant by id, and says nothing before a result", () => {
    const v = swiss();
    v.standings.rows[0]!.why = 'tied on 2 points with entrant 4 and entrant 3; entrant 77 unknown';
    expect(standingLines(v)[0]!.why).toBe('tied on 2 points with bot 2 and bot (level 1); entrant 77 unknown');
    expect(anyResult(v)).toBe(true);
    v.standings.rows = v.standings.rows.map((r) => ({ ...r, points: 0, games: 0, byes: 0 }));
    expect(anyResult(v)).toBe(false);
  });

  it('falls back to the name in the row, then the id, for an entrant the view does not list', () => {
    const v = swiss();
    v.standings.rows.push({ entrant: 99, name: 'zoe', place: 5, points: 0, tie_breaks: [], games: 0, byes: 0, eliminated: true, why: null });
    v.standings.rows.push({ entrant: 98, place: 6, points: 0, tie_breaks: [], games: 0, byes: 2, eliminated: false, why: null });
    const lines = standingLines(v);
    expect(lines[4]).toMatchObject({ name: 'zoe', notes: ['eliminated'] });
    expect(lines[5]).toMatchObject({ name: '#98', notes: ['2 byes'] });
  });

  it('names tie-breaks short for the header and long for its title', () => {
    expect(tieBreakShort('sos')).toBe('SOS');
    expect(tieBreakLong('direct_encounters')).toBe('points in the games between the tied players');
    expect(tieBreakShort('something_new')).toBe('something new');
    expect(pointsText(4 / 3)).toBe('1.33');
    expect(ordinal(1) + ordinal(2) + ordinal(3) + ordinal(4) + ordinal(11) + ordinal(22)).toBe('1st2nd3rd4th11th22nd');
  });
});

describe('the crosstable and the pairings', () => {
  it('reads every kind of cell', () => {
    expect([null, 1, 0.5, '+', { text: '½' }, { points: 2 }, { other: 1 }].map(crossCellText)).toEqual(['', '1', '0.5', '+', '½', '2', '']);
  });

  it('orders rows as the standings and links the games the server names', () => {
    const t = crossTable(swiss());
    expect(t.head).toEqual(['1', '2', '3', '4']);
    expect(t.rows.map((r) => r.name)).toEqual(['ann', 'bot 2', 'bob', 'bot (level 1)']);
    expect(t.rows[0]!.cells).toEqual(['', '+', '1', '']);
    expect(t.rows[0]!.games).toEqual([null, 33, null, null]);
  });

  it('words tables of two and of more, finished or not', () => {
    const v = swiss();
    expect(tableText(v, [1, 2], [1, 2])).toBe('ann – bob: ann won');
    expect(tableText(v, [3, 4], [2, 1])).toBe('bot (level 1) – bot 2: bot 2 won');
    expect(tableText(v, [1, 2], [1, 1])).toBe('ann – bob: a draw');
    expect(tableText(v, [4, 1], null)).toBe('bot 2 – ann: playing');
    expect(tableText(v, [1, 2, 4], [2, 1, 3])).toBe('ann – bob – bot 2: ann 2nd, bob 1st, bot 2 3rd');
  });

  it('says the rating range and the start', () => {
    expect(ratingLine(swiss())).toBe('Open to ratings of 1200 and above.');
    expect(ratingLine({ ...swiss(), settings: {} })).toBeNull();
    expect(startText(null)).toMatch(/when full/);
    expect(startText(1_000 + 30 * 60_000, 1_000)).toBe('in 30 min');
    expect(startText(1_000 + 5 * 3_600_000, 1_000)).toBe('in 5 h');
  });
});

describe('the Create form', () => {
  const input = (over: Partial<CreateInput> = {}): CreateInput => ({
    name: ' Friday Swiss ', format: 'swiss', rounds: '3', playersPerGame: '2', minEntrants: '2', maxEntrants: '16',
    start: '', minRating: '', maxRating: '', points: '', advance: '', bots: '', ...over,
  });

  it('reads a plain Swiss', () => {
    expect(readCreate(input())).toEqual({ name: 'Friday Swiss', format: 'swiss', rounds: 3, players_per_game: 2, start_ms: null, min_entrants: 2, max_entrants: 16, entry: 'open' });
  });

  it('reads the optional fields', () => {
    const now = Date.parse('2030-01-01T10:00:00');
    const body = readCreate(input({ format: 'round_robin', rounds: '', playersPerGame: '3', minEntrants: '3', start: '2030-01-01T12:00', minRating: '1000', maxRating: '1800', points: '3, 1, 0', advance: '1', bots: '1, 1 3' }), now);
    expect(body).toMatchObject({ rounds: 0, players_per_game: 3, min_rating: 1000, max_rating: 1800, points: [3, 1, 0], advance: 1, bots: [1, 1, 3] });
    expect(body.start_ms).toBe(Date.parse('2030-01-01T12:00'));
  });

  it('refuses bad fields, naming the field', () => {
    const now = Date.parse('2030-01-01T10:00:00');
    const bad: [Partial<CreateInput>, RegExp][] = [
      [{ name: '  ' }, /^Name: 1 to 80/],
      [{ name: 'x'.repeat(81) }, /^Name/],
      [{ rounds: '0' }, /^Rounds: between 1 and 100, not 0/],
      [{ rounds: '101' }, /^Rounds: between 1 and 100/],
      [{ rounds: '2.5' }, /^Rounds: enter a whole number/],
      [{ playersPerGame: '9' }, /^Players per game: between 2 and 8/],
      [{ maxEntrants: '1000000' }, /^At most \(entrants\): between 2 and 256/],
      [{ minEntrants: '10', maxEntrants: '4' }, /^At most \(entrants\): not fewer/],
      [{ playersPerGame: '4', minEntrants: '3' }, /^At least \(entrants\): a game needs 4/],
      [{ start: '2029-12-31T09:00' }, /^Starts: that time has passed/],
      [{ minRating: '1800', maxRating: '1000' }, /^Highest rating: not below/],
      [{ points: '3, x' }, /^Points by place: numbers/],
      [{ points: '3, 2, 1' }, /^Points by place: one number per place \(2\), not 3/],
      [{ bots: '1, 11' }, /^Bots: between 1 and 10, not 11/],
      [{ advance: '2' }, /^Go on from each table: between 1 and 1/],
    ];
    for (const [over, re] of bad) expect(() => readCreate(input(over), now), JSON.stringify(over)).toThrow(re);
  });
});
