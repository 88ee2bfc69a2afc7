// What every rule system's state and recorded actions have in common: all a page may read. The
// rest is each system's own JSON (docs/formats.md), typed in protocol.ts and read only by its
// module in src/systems/. Everything else the server sends is generated from its Rust types
// (protocol.ts).

import type { MapSummary, Outcome, RulesSpec } from './protocol';

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
  /** Whether the map has straight lines (The Way of Go and BeSiege need them). */
  straight_lines?: boolean;
}

/** A seat as every state shows it. */
export interface BasePlayer {
  player: number;
  name: string;
  /** The colour's name (Black, White, Red, …). */
  color: string;
  /** Labels of the nodes holding the seat's stones. */
  stones: string[];
}

/** What every system's state has. */
export interface BaseState {
  map: MapSummary;
  rules: RulesSpec;
  /** The seat to move, while the game is on. */
  to_move: number | null;
  players: BasePlayer[];
  /** Per node: the stone's seat, or null. */
  board: (number | null)[];
  consecutive_passes: number;
  outcome: Outcome | null;
}

/** What every system's moves have. */
export interface BaseMove {
  type: string;
}

/** A recorded action of any system: a move and who made it. */
export interface BaseAction extends BaseMove {
  player: number;
}

// The names the generated protocol uses for a state and an action of any system.
export type GameState = BaseState;
export type RecordedAction = BaseAction;
