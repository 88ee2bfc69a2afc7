import type { Outcome } from './protocol';

// What each rule system sends as a game's state, its recorded actions and its events: the
// systems' own JSON (docs/formats.md), read by src/systems/. Everything else the server sends
// is generated from its Rust types (protocol.ts).

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
