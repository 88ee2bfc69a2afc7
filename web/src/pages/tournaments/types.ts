// The tournament API's shapes (docs/api.md, "Tournaments"), as the pages read them. Fields the
// pages do not need are left out; optional ones may be missing from an older server.

// McMahon: the server takes `mcmahon` (the pairing library's enum would write `mc_mahon`; both read).
export type Format = 'round_robin' | 'swiss' | 'mcmahon' | 'mc_mahon' | 'single_elimination' | 'double_elimination' | 'arena';
export type TieBreak = 'sos' | 'sodos' | 'head_to_head' | 'tablemates' | 'direct_encounters' | 'mc_mahon_score' | 'mcmahon_score';
export type TournamentState = 'open' | 'running' | 'finished' | 'cancelled';

export interface TournamentSummary {
  id: number;
  name: string;
  system: string;
  map: string;
  format: Format;
  players_per_game: number;
  rounds: number;
  state: TournamentState;
  entrants: number;
  max_entrants: number;
  start_ms: number | null;
  creator: string;
  time_control_text: string;
}

export interface Entrant {
  id: number;
  name: string;
  rating: number;
  bot_level: number | null;
  withdrawn_after: number | null;
  user_id: number | null;
}

export interface RoundTable {
  table: number;
  seats: number[];
  game_id: number | null;
  places: number[] | null;
}

export interface RoundView {
  number: number;
  tables: RoundTable[];
  byes: number[];
  absent: number[];
  started_ms: number | null;
  finished_ms: number | null;
}

export interface StandingRow {
  entrant: number;
  name?: string;
  place: number;
  points: number;
  tie_breaks: number[];
  games: number;
  byes: number;
  eliminated: boolean;
  why: string | null;
}

export interface Standings {
  rows: StandingRow[];
  tie_breaks: TieBreak[];
}

/** A crosstable cell: the server's words ("1st", "+", "½"), a number, an object with its text,
 *  or null (no game). The pages show what it says. */
export type CrossCell = string | number | null | { text?: string; points?: number; game_id?: number | null; games?: { result: string; game_id: number | null }[]; [k: string]: unknown };

/** An arena's window of play once it started (the server's clock: `ends_in_ms` as read). */
export interface ArenaWindow {
  started_ms: number;
  ends_ms: number;
  ends_in_ms: number;
}

export interface TournamentView {
  summary: TournamentSummary;
  settings?: Record<string, unknown>;
  spec?: { format: Format; players_per_game: number; rounds: number; points?: number[]; advance?: number };
  rules_text: string[];
  entrants: Entrant[];
  rounds: RoundView[];
  standings: Standings;
  crosstable: CrossCell[][];
  may_join: boolean;
  may_leave: boolean;
  may_start: boolean;
  /** Added by the server when it knows (creator only, before the start). */
  may_add_bot?: boolean;
  may_request_bye?: boolean;
  why_not: string | null;
  arena?: ArenaWindow | null;
}

/** POST /api/tournaments */
export interface CreateBody {
  name: string;
  system: string;
  settings?: Record<string, unknown>;
  map: string;
  players_per_game: number;
  time_control: unknown;
  rated: boolean;
  format: Format;
  rounds: number;
  start_ms: number | null;
  min_entrants: number;
  max_entrants: number;
  entry: 'open' | 'invitation';
  min_rating?: number;
  max_rating?: number;
  points?: number[];
  advance?: number;
  bots?: number[];
  /** Arena only: the window of play in minutes (5 to 1440). */
  arena_minutes?: number;
}
