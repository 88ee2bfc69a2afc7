// The tournament pages' pure parts (no DOM): formats and tie-breaks in words, the standings and
// crosstable as rows of text, and the Create form's checks (the server's bounds, docs/api.md),
// so that each is tested on its own (web/test/tournaments.test.ts).

import type { CreateBody, CrossCell, Entrant, Format, StandingRow, TieBreak, TournamentView } from './types';

export const FORMATS: { format: Format; label: string; about: string }[] = [
  { format: 'swiss', label: 'Swiss', about: 'everyone plays every round, against players with the same score' },
  { format: 'round_robin', label: 'Round robin', about: 'everyone meets everyone' },
  { format: 'mcmahon', label: 'McMahon', about: 'Swiss where stronger players start with a higher score' },
  { format: 'single_elimination', label: 'Knockout', about: 'a loss and you are out' },
  { format: 'double_elimination', label: 'Double knockout', about: 'out after two losses' },
  { format: 'arena', label: 'Arena', about: 'play as many games as you like until the time is up' },
];

export function formatLabel(f: Format | string): string {
  if (f === 'mc_mahon') return 'McMahon';
  return FORMATS.find((x) => x.format === f)?.label ?? String(f).replace(/_/g, ' ');
}

/** Formats whose number of rounds follows from the entrants (0 rounds: as many as needed). */
export function roundsFollowEntrants(f: Format): boolean {
  return f === 'round_robin' || f === 'single_elimination' || f === 'double_elimination';
}

const TIE_BREAKS: Record<TieBreak, { short: string; long: string }> = {
  sos: { short: 'SOS', long: "sum of opponents' scores" },
  sodos: { short: 'SODOS', long: "sum of defeated opponents' scores" },
  head_to_head: { short: 'H2H', long: 'result between the tied players' },
  tablemates: { short: 'Mates', long: "sum of tablemates' scores" },
  direct_encounters: { short: 'Direct', long: 'points in the games between the tied players' },
  mc_mahon_score: { short: 'McM', long: 'McMahon score' },
  mcmahon_score: { short: 'McM', long: 'McMahon score' },
};

export function tieBreakShort(t: TieBreak | string): string {
  return TIE_BREAKS[t as TieBreak]?.short ?? String(t).replace(/_/g, ' ');
}

export function tieBreakLong(t: TieBreak | string): string {
  return TIE_BREAKS[t as TieBreak]?.long ?? String(t).replace(/_/g, ' ');
}

/** Points as players write them: 3, 2.5, 1.33. */
export function pointsText(p: number): string {
  return Number.isInteger(p) ? String(p) : String(Math.round(p * 100) / 100);
}

export function ordinal(n: number): string {
  const t = n % 100;
  if (t >= 11 && t <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** An entrant's name from the view (a bot: "bot (level 3)" when the server gave no name). */
export function entrantName(entrants: Entrant[], id: number, fallback?: string): string {
  const e = entrants.find((x) => x.id === id);
  if (e) return e.name || (e.bot_level !== null ? `bot (level ${e.bot_level})` : `#${id}`);
  return fallback ?? `#${id}`;
}

export interface StandingLine {
  entrant: number;
  place: string;
  name: string;
  points: string;
  tieBreaks: string[];
  games: number;
  /** "eliminated", "withdrew after round 2", "2 byes": what else the row says. */
  notes: string[];
  why: string | null;
}

/** The standings table's rows, in the server's order. */
export function standingLines(view: TournamentView): StandingLine[] {
  const rows: StandingRow[] = view.standings?.rows ?? [];
  return rows.map((r, i) => {
    const shared = rows.some((o, j) => j !== i && o.place === r.place);
    const e = view.entrants.find((x) => x.id === r.entrant);
    const notes: string[] = [];
    if (r.eliminated) notes.push('eliminated');
    if (e?.withdrawn_after != null) notes.push(`withdrew after round ${e.withdrawn_after}`);
    if (r.byes > 0) notes.push(r.byes === 1 ? '1 bye' : `${r.byes} byes`);
    return {
      entrant: r.entrant,
      place: shared ? `${r.place}=` : String(r.place),
      name: entrantName(view.entrants, r.entrant, r.name),
      points: pointsText(r.points),
      tieBreaks: r.tie_breaks.map(pointsText),
      games: r.games,
      notes,
      why: r.why ? namesIn(view.entrants, r.why) : null,
    };
  });
}

/** The server's reasons may name entrants by id ("tied with entrant 3"): their names read better. */
export function namesIn(entrants: Entrant[], text: string): string {
  return text.replace(/\bentrant (\d+)\b/g, (whole, id: string) => (entrants.some((e) => e.id === Number(id)) ? entrantName(entrants, Number(id)) : whole));
}

/** Whether any result is in (before, every row ties at 0 and the table says nothing). */
export function anyResult(view: TournamentView): boolean {
  return (view.standings?.rows ?? []).some((r) => r.games > 0 || r.byes > 0 || r.points !== 0);
}

/** A crosstable cell as text ("" where there is no game). */
export function crossCellText(c: CrossCell): string {
  if (c === null || c === undefined) return '';
  if (typeof c === 'number') return pointsText(c);
  if (typeof c === 'string') return c;
  if (typeof c.text === 'string') return c.text;
  if (typeof c.points === 'number') return pointsText(c.points);
  return '';
}

/** The crosstable's header and rows: one row and one column per entrant in standings order
 *  (the server's rows follow that order too). */
export interface CrossLink {
  /** "+", "−" or "=": one game's result for the row's player. */
  text: string;
  game: number | null;
}

/** A cell's games, each result with its game: the server's `games` list, else one link for the
 *  cell's `game_id`, else none. */
export function crossLinks(c: CrossCell): CrossLink[] {
  if (c === null || typeof c !== 'object') return [];
  if (Array.isArray(c.games)) {
    return (c.games as { result?: unknown; game_id?: unknown }[]).map((g) => ({
      text: typeof g?.result === 'string' ? g.result : '?',
      game: typeof g?.game_id === 'number' ? g.game_id : null,
    }));
  }
  return typeof c.game_id === 'number' ? [{ text: crossCellText(c), game: c.game_id }] : [];
}

export function crossTable(view: TournamentView): { head: string[]; rows: { name: string; cells: string[]; games: (number | null)[]; links: CrossLink[][] }[] } {
  const order = (view.standings?.rows ?? []).map((r) => r.entrant);
  const ids = order.length === view.crosstable.length ? order : view.entrants.map((e) => e.id);
  const names = ids.map((id) => entrantName(view.entrants, id));
  return {
    head: names.map((_, i) => String(i + 1)),
    rows: view.crosstable.map((cells, i) => ({
      name: names[i] ?? `#${i + 1}`,
      cells: cells.map(crossCellText),
      games: cells.map((c) => crossLinks(c).find((l) => l.game !== null)?.game ?? null),
      links: cells.map(crossLinks),
    })),
  };
}

/** One table of a round in words: "Ann – Bob: Ann 1st, Bob 2nd", or "playing". */
export function tableText(view: TournamentView, seats: number[], places: number[] | null): string {
  const names = seats.map((id) => entrantName(view.entrants, id));
  if (!places) return `${names.join(' – ')}: playing`;
  if (seats.length === 2 && places.length === 2) {
    if (places[0] === places[1]) return `${names.join(' – ')}: a draw`;
    const winner = places[0]! < places[1]! ? names[0] : names[1];
    return `${names.join(' – ')}: ${winner} won`;
  }
  return `${names.join(' – ')}: ${seats.map((_, i) => `${names[i]} ${ordinal(places[i] ?? 0)}`).join(', ')}`;
}

export function stateLabel(state: string): string {
  return { open: 'Upcoming', running: 'Running', finished: 'Finished', cancelled: 'Cancelled' }[state] ?? state;
}

/** When it starts, in words: "when the organiser starts it", "in 3 h", a date. */
export function startText(startMs: number | null, now = Date.now()): string {
  if (startMs === null) return 'when full or when the organiser starts it';
  const mins = Math.round((startMs - now) / 60_000);
  if (mins <= 0) return 'now';
  if (mins < 60) return `in ${mins} min`;
  if (mins < 48 * 60) return `in ${Math.round(mins / 60)} h`;
  return new Date(startMs).toLocaleString();
}

/** What the Create form holds, as typed. */
export interface CreateInput {
  name: string;
  format: Format;
  rounds: string;
  playersPerGame: string;
  minEntrants: string;
  maxEntrants: string;
  start: string; // '' = when full or started by hand; else a local date-time
  minRating: string;
  maxRating: string;
  points: string;
  advance: string;
  bots: string; // bot levels, e.g. "1, 1, 3"
  arenaMinutes?: string; // arena only: how long it lasts
}

function whole(text: string, label: string, min: number, max: number): number {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(n)) throw new Error(`${label}: enter a whole number`);
  if (n < min || n > max) throw new Error(`${label}: between ${min} and ${max}, not ${n}`);
  return n;
}

/** The form's fields as the body of POST /api/tournaments (without the rules, map and clock,
 *  which the lobby's pieces read); an error names the field as the form shows it. */
export function readCreate(input: CreateInput, now = Date.now()): Omit<CreateBody, 'system' | 'settings' | 'map' | 'time_control' | 'rated'> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 80) throw new Error('Name: 1 to 80 characters');
  const ppg = whole(input.playersPerGame, 'Players per game', 2, 8);
  const needed = roundsFollowEntrants(input.format);
  const arena = input.format === 'arena';
  // An arena has no rounds: it lasts a time instead.
  const rounds = arena || (input.rounds.trim() === '' && needed) ? 0 : whole(input.rounds, 'Rounds', needed ? 0 : 1, 100);
  const minEntrants = whole(input.minEntrants, 'At least (entrants)', 2, 256);
  const maxEntrants = whole(input.maxEntrants, 'At most (entrants)', 2, 256);
  if (maxEntrants < minEntrants) throw new Error(`At most (entrants): not fewer than at least (${minEntrants})`);
  if (minEntrants < ppg) throw new Error(`At least (entrants): a game needs ${ppg} players`);
  let start_ms: number | null = null;
  if (input.start.trim() !== '') {
    const t = new Date(input.start).getTime();
    if (!Number.isFinite(t)) throw new Error('Starts: not a date and time');
    if (t <= now) throw new Error('Starts: that time has passed');
    start_ms = t;
  }
  const body: ReturnType<typeof readCreate> = { name, format: input.format, rounds, players_per_game: ppg, start_ms, min_entrants: minEntrants, max_entrants: maxEntrants, entry: 'open' };
  if (arena) body.arena_minutes = whole(input.arenaMinutes ?? '', 'Arena length (minutes)', 5, 1440);
  if (input.minRating.trim() !== '') body.min_rating = whole(input.minRating, 'Lowest rating', 0, 5000);
  if (input.maxRating.trim() !== '') body.max_rating = whole(input.maxRating, 'Highest rating', 0, 5000);
  if (body.min_rating !== undefined && body.max_rating !== undefined && body.max_rating < body.min_rating) {
    throw new Error('Highest rating: not below the lowest');
  }
  if (input.points.trim() !== '') {
    const pts = input.points.split(/[\s,;]+/).filter(Boolean).map(Number);
    if (pts.some((p) => !Number.isFinite(p))) throw new Error('Points by place: numbers, e.g. 3, 1, 0');
    if (pts.length !== ppg) throw new Error(`Points by place: one number per place (${ppg}), not ${pts.length}`);
    body.points = pts;
  }
  if (input.advance.trim() !== '') body.advance = whole(input.advance, 'Go on from each table', 1, ppg - 1);
  if (input.bots.trim() !== '') {
    const levels = input.bots.split(/[\s,;]+/).filter(Boolean).map((b) => whole(b, 'Bots', 1, 10));
    if (levels.length > maxEntrants) throw new Error(`Bots: at most ${maxEntrants}, the entrants' limit`);
    body.bots = levels;
  }
  return body;
}

/** Who may enter, when the view says (a rating range). */
export function ratingLine(view: TournamentView): string | null {
  const s = view.settings as { min_rating?: number | null; max_rating?: number | null } | undefined;
  const lo = s?.min_rating ?? null;
  const hi = s?.max_rating ?? null;
  if (lo === null && hi === null) return null;
  if (lo !== null && hi !== null) return `Open to ratings ${lo} to ${hi}.`;
  return lo !== null ? `Open to ratings of ${lo} and above.` : `Open to ratings up to ${hi}.`;
}

/** "4:05", "1:02:03": what is left of an arena's window (0:00 once closed). */
export function clockText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const [hrs, mins, secs] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return hrs > 0 ? `${hrs}:${two(mins)}:${two(secs)}` : `${mins}:${two(secs)}`;
}

/** The tables of an arena still playing, latest first. */
export function gamesInPlay(view: TournamentView): { seats: number[]; game_id: number | null }[] {
  return view.rounds.flatMap((r) => r.tables).filter((t) => t.places === null).reverse();
}
