// What several systems draw alike: crossed and atari stones on a Go board.

import { type Decorations, type StoneDecoration, at } from '../decorations';
import { groupsWithLiberties } from '../graph';
import type { MapView } from '../types';
import type { Viewer } from './types';

/** The stones' marks of a Go board: those the viewer has chosen (or picked) crossed out, and,
 *  if the viewer asks, every group with one liberty on the map's graph ringed. */
export function goStones(board: (number | null)[], map: MapView, viewer: Viewer, atari = graphAtari): Map<number, StoneDecoration> {
  const stones = new Map<number, StoneDecoration>();
  const crossed = viewer.selected ?? (viewer.picked !== null ? [viewer.picked] : []);
  for (const n of crossed) at(stones, n).crossed = true;
  if (viewer.atari) for (const n of atari(map, board)) at(stones, n).ring = 'atari';
  return stones;
}

/** Stones whose group has one liberty along the map's edges. */
export function graphAtari(map: MapView, board: (number | null)[]): Set<number> {
  return groupsWithLiberties(map, board, 1);
}

/** Decorations with nothing but `stones`, left out when empty. */
export function onlyStones(stones: Map<number, StoneDecoration>): Decorations {
  return stones.size ? { stones } : {};
}
