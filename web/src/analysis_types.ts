// The shapes of a game's review tree, the free board and the computer's review (docs/api.md,
// "Analysis"). Written by hand until the server exports them with ts-rs.

import type { GameState, MapView, RecordedAction } from './types';

/** A position in a game's tree: the main line after its first `at` actions, or a variation node. */
export type NodeRef = { at: number } | { var: number };

export interface MainMove {
  /** The action's index; the node after it is `{ at: at + 1 }`. */
  at: number;
  player: number;
  input: RecordedAction;
  /** The number players give this move; null for actions that are no move (dice, marking). */
  move_number: number | null;
  at_ms: number | null;
}

export interface VariationNode {
  id: number;
  parent: NodeRef;
  player: number;
  input: RecordedAction;
  author?: string | null;
  move_number?: number | null;
}

export interface TreeComment {
  id: number;
  node: NodeRef;
  author: string;
  text: string;
  at_ms: number;
}

export interface ReviewTree {
  total: number;
  moves: MainMove[];
  variations: VariationNode[];
  comments: TreeComment[];
  may_edit: boolean;
  why_not: string | null;
}

/** A game record (docs/formats.md); only the fields the pages read are named. */
export interface GameRecord {
  version: number;
  actions: { player: number; input?: unknown; [k: string]: unknown }[];
  [k: string]: unknown;
}

export interface Analysed {
  record: GameRecord;
  state: GameState;
  total: number;
  map?: MapView;
}

export type Mark = 'inaccuracy' | 'mistake' | 'blunder';

export interface Candidate {
  input: RecordedAction;
  value: number;
  visits: number;
}

export interface PositionReview {
  at: number;
  to_move: number | null;
  /** Each seat's chance to win (0..1). */
  values: number[];
  scores?: number[] | null;
  best: Candidate[];
  playouts: number;
  /** Per node: the seat it belongs to and how surely, or null. */
  ownership?: ([number, number] | null)[];
}

export interface MoveJudgement {
  at: number;
  player: number;
  loss: number;
  points_lost?: number | null;
  mark?: Mark | null;
}

export interface ReviewStatus {
  state: 'none' | 'queued' | 'running' | 'done' | 'failed';
  playouts: number;
  done: number;
  total: number;
  queue_position: number | null;
  error: string | null;
  positions: PositionReview[];
  moves: MoveJudgement[];
}

export const refKey = (r: NodeRef): string => ('at' in r ? `at:${r.at}` : `var:${r.var}`);
