// What a board draws besides whose stone is where: a closed vocabulary. A rule system says which
// of these marks go where (`SystemUi.decorate`); the renderers (board2d.ts, board3d.ts) know how
// to draw each one and know no rule system. A new kind of mark is a deliberate change of this
// file and of both renderers, not a side effect of a new system.

/** A seat's colour, or both sides' (drawn grey). */
export type Colour = number | 'both';

/** A ring around a stone: in atari, a capture a move would make, the stack picked to move. */
export type StoneRing = 'atari' | 'target' | 'lifted';

export interface StoneDecoration {
  /** The colour style the stone is drawn in (a seat's index into the palette); default: its
   *  owner's. */
  style?: number;
  /** Drawn this many times the usual size. */
  scale?: number;
  /** Written on the stone (a stack's height). */
  label?: string;
  ring?: StoneRing;
  /** Crossed out: chosen to be given up, marked dead, or picked by a first click. */
  crossed?: boolean;
  /** Drawn pale: a dead stone, counted as removed. */
  faded?: boolean;
}

/** A shade over a node that the pointer can also feel (a class on its hit area). */
export type NodeShade = 'disputed' | 'reachable';

/** A ring on an empty node: held for a seat until its next turn, a start point (its seat's,
 *  or free to choose while `seat` is null), or the computer's best move in a review (in the
 *  mover's colour, `title` its words for the tooltip). */
export type NodeRing =
  | { kind: 'reserved'; seat: number }
  | { kind: 'start'; seat: number | null }
  | { kind: 'best'; seat: number; title: string };

export interface NodeDecoration {
  /** An empty node no stone may take, tinted in the colour that keeps stones off it. */
  tint?: Colour;
  /** An empty node that counts for a seat: a small diamond in its colour. */
  claim?: number;
  /** A point of a seat's territory in the count (classic Go): a small square in its colour,
   *  as Go servers mark it (3-D: as a claim). */
  territory?: number;
  shade?: NodeShade;
  ring?: NodeRing;
}

/** Sparse, by node; drawn in insertion order where order shows (start points). */
export interface Decorations {
  /** For the stones on these nodes. */
  stones?: Map<number, StoneDecoration>;
  /** For nodes; a stone covers a node's tint, claim, reserved ring and the disputed shade. */
  nodes?: Map<number, NodeDecoration>;
  /** Nodes marked while the pointer rests somewhere (the liberties of the group under it). */
  hover?: Set<number>;
}

/** Node `i`'s decoration in `map`, made on first use. */
export function at<T extends object>(map: Map<number, T>, i: number): T {
  let d = map.get(i);
  if (!d) {
    d = {} as T;
    map.set(i, d);
  }
  return d;
}
