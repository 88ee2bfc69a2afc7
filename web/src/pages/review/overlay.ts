// The computer's view of a position drawn with the board's own marks (decorations.ts): the best
// move as a ring in the mover's colour on its node (its own mark, its words in the tooltip), and ownership as small diamonds on the empty
// nodes a seat is likely to keep and pale stones where they are likely lost.

import type { PositionReview } from '../../analysis_types';
import { at, type Decorations } from '../../decorations';

/** Ownership surer than this is drawn (a faint overlay, not a forecast of every point). */
const SURE = 0.6;

export function computerMarks(base: Decorations, board: (number | null)[], review: PositionReview | null, showOwnership: boolean, bestTitle = ''): Decorations {
  if (!review) return base;
  const out: Decorations = { ...base, stones: new Map(base.stones ?? []), nodes: new Map(base.nodes ?? []) };
  const nodes = out.nodes as Map<number, object>;
  const stones = out.stones as Map<number, object>;
  if (showOwnership) {
    (review.ownership ?? []).forEach((own, node) => {
      if (!own || own[1] < SURE) return;
      const stone = board[node];
      if (stone === null || stone === undefined) {
        const d = at(nodes, node) as { claim?: number; territory?: number };
        if (d.claim === undefined && d.territory === undefined) d.claim = own[0];
      } else if (stone !== own[0]) {
        (at(stones, node) as { faded?: boolean }).faded = true;
      }
    });
  }
  const node = bestNode(review);
  if (node !== null && review.to_move !== null && (board[node] ?? null) === null) {
    (at(nodes, node) as { ring?: unknown }).ring = { kind: 'best', seat: review.to_move, title: bestTitle || 'best move' };
  }
  return out;
}

/** The node of the search's best action, when it names one. */
export function bestNode(review: PositionReview): number | null {
  const input = review.best[0]?.input as { node?: unknown; to?: unknown } | undefined;
  const n = input?.node ?? input?.to;
  return typeof n === 'number' ? n : null;
}
