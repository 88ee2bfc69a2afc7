// Where the value graph's lines run: x by position (0 = the start, total = the end), y by value
// (1 = sure to win at the top).

import type { PositionReview } from '../../analysis_types';

export interface GraphBox {
  width: number;
  height: number;
}

/** One polyline per seat ("x,y x,y …"), over the positions reviewed so far, in order. */
export function valueLines(positions: PositionReview[], seats: number, total: number, box: GraphBox): string[] {
  const sorted = [...positions].sort((a, b) => a.at - b.at);
  const x = (at: number) => (total > 0 ? (at / total) * box.width : 0);
  const y = (v: number) => (1 - Math.max(0, Math.min(1, v))) * box.height;
  return Array.from({ length: seats }, (_, seat) =>
    sorted
      .filter((p) => Number.isFinite(p.values[seat]))
      .map((p) => `${round(x(p.at))},${round(y(p.values[seat]))}`)
      .join(' '),
  );
}

/** The position a click at `px` (0..width) on the graph means. */
export function positionAt(px: number, total: number, width: number): number {
  if (width <= 0) return 0;
  return Math.max(0, Math.min(total, Math.round((px / width) * total)));
}

const round = (v: number) => Math.round(v * 10) / 10;
