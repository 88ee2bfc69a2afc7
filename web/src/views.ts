import type {
  ClassicMove,
  ClassicState,
  GoBeyondEvent,
  GoBeyondMove,
  GoBeyondState,
  Outcome,
} from './protocol';

export type { GoBeyondEvent };

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


export interface PlayerView {
  player: number;
  name: string;
  color: string;
  stones: string[];
  // GoBeyond
  points?: number;
  projected?: number;
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
  /** Stones marked dead (the dead-stone phase) or agreed dead. */
  dead?: number[];
  /** The dead-stone phase: seats that have accepted the marking. */
  accepted?: number[] | null;
  ko?: string | null;
  moves_played?: number;
}

export interface RecordedAction {
  player: number;
  type: 'place' | 'pass' | 'resign' | 'skip' | 'timeout' | 'surrender' | 'cleanup_timeout' | 'dead' | 'accept' | 'resume';
  at?: string | string[] | null;
  node?: number | null;
  nodes?: number[];
  proposed?: boolean;
}

// `GameState` and `RecordedAction` read every system's JSON: each system's generated types
// (protocol.ts) must fit them, or this file does not compile.
type FitsState<T extends GameState> = T;
type FitsAction<T extends RecordedAction> = T;
export type CheckedStates = [FitsState<ClassicState>, FitsState<GoBeyondState>];
export type CheckedActions = [FitsAction<ClassicMove & { player: number }>, FitsAction<GoBeyondMove & { player: number }>];
