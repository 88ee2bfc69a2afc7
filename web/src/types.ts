// The server's JSON, as documented in docs/api.md and docs/formats.md.

export interface User {
  id: number;
  name: string;
  kind: 'guest' | 'registered' | 'bot';
}

export interface MapView {
  name: string;
  spec: string;
  dimension: 2 | 3;
  nodes: number;
  x: number[];
  y: number[];
  z: number[];
  labels: string[];
  edges: [number, number][];
  grid: { width: number; height: number; wrap: boolean } | null;
  start_points: number[];
}

export interface SeatInfo {
  seat: number;
  kind: { kind: 'me' | 'open' | 'invite' | 'bot'; level?: number };
  user: string | null;
  user_id: number | null;
  bot_level: number | null;
}

export interface ClockView {
  control: { kind: string; turn_ms?: number; cleanup_ms?: number };
  deadline_ms: number | null;
  left_ms: number | null;
  remaining_ms?: number[];
  periods_left?: number[];
}

export interface Outcome {
  scores: number[];
  ranking: number[];
  reason: string;
}

export interface GameInfo {
  id: number;
  status: 'open' | 'live' | 'finished';
  phase: 'playing' | 'clean_up' | 'finished';
  creator: number;
  rules: { system: string; [k: string]: unknown };
  map: { spec?: string; custom?: unknown } | string | unknown;
  players: number;
  seats: SeatInfo[];
  seq: number;
  waiting_for: number[];
  clock: ClockView | null;
  outcome: Outcome | null;
}

export interface GameSummary {
  id: number;
  status: string;
  /** The rule system's name. */
  rules: string;
  map: unknown;
  players: number;
  seats: { seat: number; user: string | null; user_id?: number | null; bot_level: number | null }[];
  created_ms: number;
  result: unknown;
}

export type GoBeyondEvent =
  | { event: 'starting_points'; player: number; points: number }
  | { event: 'turn_started'; turn: number; player: number }
  | { event: 'reservation_released'; player: number; node: number }
  | { event: 'income'; player: number; claimed: number; points: number }
  | { event: 'occupied'; player: number; node: number; cost: number }
  | { event: 'captured'; player: number; victim: number; nodes: number[]; award: number }
  | { event: 'claims_changed'; changes: unknown[] }
  | { event: 'reserved'; player: number; node: number }
  | { event: 'skipped'; player: number; timeout: boolean }
  | { event: 'passed'; player: number; automatic: boolean; consecutive: number }
  | { event: 'resigned'; player: number; place: number }
  | { event: 'clean_up_started'; players: number[] }
  | { event: 'surrendered'; player: number; nodes: number[]; timeout: boolean }
  | { event: 'stones_removed'; owner: number; nodes: number[]; claimant: number | null; award: number }
  | { event: 'final_bonus'; player: number; claimed: number; points: number }
  | { event: 'game_over'; reason: string; ranking: number[]; scores: number[] };

export interface PlayerView {
  player: number;
  name: string;
  color: string;
  stones: string[];
  // GoBeyond
  points?: number;
  status?: string;
  claimed?: number;
  reservation?: string | null;
  surrendered?: string[] | null;
  // classic
  prisoners?: number;
  score?: number;
  resigned?: boolean;
}

export interface GameState {
  map: { name: string; spec: string; nodes: number };
  rules: { system: string; [k: string]: unknown };
  to_move: number | null;
  players: PlayerView[];
  board: (number | null)[];
  outcome: Outcome | null;
  consecutive_passes: number;
  // GoBeyond
  phase?: 'playing' | 'clean_up' | 'finished';
  turn?: number;
  passes_to_end?: number;
  claims?: (number | null)[];
  reserved?: (number | null)[];
  nodes?: ('occupied' | 'claimed' | 'reserved' | 'disputed')[];
  awaiting_cleanup?: number[];
  events?: GoBeyondEvent[];
  // classic
  status?: string;
  ownership?: (number | null)[];
  ko?: string | null;
  moves_played?: number;
}

export interface RecordedAction {
  player: number;
  type: 'place' | 'pass' | 'resign' | 'skip' | 'timeout' | 'surrender' | 'cleanup_timeout';
  at?: string | string[];
  node?: number;
  nodes?: number[];
}

export type ServerMessage =
  | { type: 'hello'; user: User }
  | { type: 'ack'; id: unknown; game: number; seq: number }
  | { type: 'error'; id?: unknown; game?: number; error: string; code?: string | null }
  | {
      type: 'sync';
      game: number;
      seq: number;
      since: number;
      actions: { seq: number; action: RecordedAction }[];
      info: GameInfo;
      state: GameState | null;
    }
  | {
      type: 'update';
      game: number;
      seq: number;
      action: RecordedAction;
      /** The action's effects, in the rule system's own terms. */
      events: unknown[];
      state: GameState;
      clock: ClockView | null;
      status: string;
    }
  | { type: 'started'; game: number; info: GameInfo }
  | { type: 'lobby'; game: number; info: GameInfo }
  | { type: 'chat'; game: number; from: string; text: string; at_ms: number }
  | { type: 'pong'; id: unknown };
