// The board's decorations read back one field per kind of mark: the shape these tests were
// first written against, so that they assert what they always did.

import type { BoardView } from '../src/board2d';
import type { Decorations } from '../src/decorations';
import type { GameState, MapView } from '../src/types';
import type { SystemUi } from '../src/systems';

export interface Markers {
  claims?: (number | null)[];
  disputed?: Set<number>;
  reachable?: Set<number>;
  covered?: (number | null)[];
  palette?: number[];
  targets?: Set<number>;
  lifted?: number | null;
}

/** What `ui` marks on the board for `state` (no pointer, no atari rings). */
export function markers(ui: SystemUi, state: GameState, map: MapView, picked: number | null = null): Markers {
  return read(ui.decorate(state, map, { picked, atari: false, hover: null }), state.board, state.players.length);
}

/** The nodes `ui` marks while the pointer rests on `node`. */
export function hoverMarks(ui: SystemUi, node: number, state: GameState, map: MapView): Set<number> | undefined {
  return ui.decorate(state, map, { picked: null, atari: false, hover: node }).hover;
}

/** The marks of a diagram's view. */
export function viewMarks(view: BoardView): Markers {
  return read(view.decorations ?? {}, view.board, view.players);
}

function read(d: Decorations, board: (number | null)[], players: number): Markers {
  const out: Markers = {};
  const nodes = board.length;
  const perNode = <T>(f: (i: number) => T | undefined): (T | null)[] | undefined => {
    const list = Array.from({ length: nodes }, (_, i) => f(i) ?? null);
    return list.some((x) => x !== null) ? list : undefined;
  };
  const set = (f: (i: number) => boolean): Set<number> | undefined => {
    const s = new Set(Array.from({ length: nodes }, (_, i) => i).filter(f));
    return s.size ? s : undefined;
  };
  const node = (i: number) => d.nodes?.get(i);
  const stone = (i: number) => d.stones?.get(i);
  const claims = perNode((i) => node(i)?.claim);
  if (claims) out.claims = claims;
  const covered = perNode((i) => {
    const t = node(i)?.tint;
    return t === 'both' ? 2 : t;
  });
  if (covered) out.covered = covered;
  const disputed = set((i) => node(i)?.shade === 'disputed');
  if (disputed) out.disputed = disputed;
  const reachable = set((i) => node(i)?.shade === 'reachable');
  if (reachable) out.reachable = reachable;
  const targets = set((i) => stone(i)?.ring === 'target');
  if (targets) out.targets = targets;
  const lifted = [...(d.stones ?? [])].find(([, s]) => s.ring === 'lifted');
  if (lifted) out.lifted = lifted[0];
  const styled = [...(d.stones ?? [])].filter(([, s]) => s.style !== undefined);
  if (styled.length) {
    out.palette = Array.from({ length: players }, (_, p) => p);
    for (const [i, s] of styled) out.palette[board[i] ?? 0] = s.style as number;
  }
  return out;
}
