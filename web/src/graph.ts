// Groups and regions on a map's graph: the nodes that touch along its edges.

import type { MapView } from './types';

/** Adjacency lists of a map view, built once per map. */
export function adjacency(map: MapView): number[][] {
  let adj = adjacencyCache.get(map);
  if (!adj) {
    adj = Array.from({ length: map.nodes }, () => []);
    for (const [a, b] of map.edges) {
      adj[a].push(b);
      adj[b].push(a);
    }
    adjacencyCache.set(map, adj);
  }
  return adj;
}

const adjacencyCache = new WeakMap<MapView, number[][]>();

/** The nodes connected to `start` through nodes of the same colour (a group, or an empty
 *  region), and the nodes just outside it; `seen` marks the component's nodes. */
export function component(
  map: MapView,
  board: (number | null)[],
  start: number,
  seen: Uint8Array = new Uint8Array(map.nodes),
): { nodes: number[]; border: Set<number> } {
  const adj = adjacency(map);
  const colour = board[start] ?? null;
  const nodes = [start];
  const border = new Set<number>();
  seen[start] = 1;
  for (let i = 0; i < nodes.length; i++) {
    for (const q of adj[nodes[i]]) {
      if ((board[q] ?? null) !== colour) border.add(q);
      else if (!seen[q]) {
        seen[q] = 1;
        nodes.push(q);
      }
    }
  }
  return { nodes, border };
}

/** Nodes of the groups that have exactly `liberties` liberties. */
export function groupsWithLiberties(map: MapView, board: (number | null)[], liberties: number): Set<number> {
  const out = new Set<number>();
  const seen = new Uint8Array(map.nodes);
  for (let start = 0; start < map.nodes; start++) {
    if (board[start] == null || seen[start]) continue;
    const group = component(map, board, start, seen);
    const libs = [...group.border].filter((q) => board[q] == null).length;
    if (libs === liberties) for (const n of group.nodes) out.add(n);
  }
  return out;
}
