// Where each node is drawn on a flat board, and how big a stone is. Pure functions of the map.

import type { MapView } from './types';

export interface FlatLayout {
  /** Drawing position per node (SVG units, y downwards). */
  x: Float64Array;
  y: Float64Array;
  /** Stone radius: a little under half the usual distance between neighbours. */
  radius: number;
  viewBox: [number, number, number, number];
  /** Edges drawn as lines between their nodes. */
  edges: [number, number][];
  /** Edges that cross the wrapped view's border: a short stub from each end, pointing outwards. */
  stubs: { node: number; dx: number; dy: number }[];
  /** Coordinates along the sides (grid maps). */
  coords: { text: string; x: number; y: number }[];
}

export type FlatMode = 'drawn' | 'wrapped';

/** Whether a map is drawn in the plane as it is, or needs the 3-D view (with a flat wrapped view when it is a grid). */
export function views(map: MapView): { flat: boolean; spatial: boolean; wrapped: boolean } {
  const spatial = map.dimension === 3;
  const wrapped = spatial && map.grid !== null;
  return { flat: !spatial || wrapped, spatial, wrapped };
}

function median(values: number[]): number {
  if (values.length === 0) return 1;
  const v = [...values].sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
}

/** The flat layout: the map's own drawing, or for wrapped grids the grid unrolled. */
export function flatLayout(map: MapView, mode: FlatMode = 'drawn'): FlatLayout {
  const n = map.nodes;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const grid = map.grid;
  const unroll = mode === 'wrapped' && grid !== null;
  for (let i = 0; i < n; i++) {
    if (unroll && grid) {
      x[i] = i % grid.width;
      y[i] = Math.floor(i / grid.width);
    } else {
      x[i] = map.x[i];
      y[i] = map.y[i];
    }
  }
  const lengths = map.edges.map(([a, b]) => Math.hypot(x[a] - x[b], y[a] - y[b]));
  const unit = median(lengths) || 1;
  const edges: [number, number][] = [];
  const stubs: FlatLayout['stubs'] = [];
  map.edges.forEach(([a, b], k) => {
    if (unroll && lengths[k] > 1.5 * unit) {
      // A wrap edge: point each stub away from the other end, along the axis it wraps.
      const dx = x[b] - x[a];
      const dy = y[b] - y[a];
      const horizontal = Math.abs(dx) >= Math.abs(dy);
      const sx = horizontal ? -Math.sign(dx) * 0.5 * unit : 0;
      const sy = horizontal ? 0 : -Math.sign(dy) * 0.5 * unit;
      stubs.push({ node: a, dx: sx, dy: sy }, { node: b, dx: -sx, dy: -sy });
    } else {
      edges.push([a, b]);
    }
  });
  const radius = 0.47 * unit;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, x[i]);
    maxX = Math.max(maxX, x[i]);
    minY = Math.min(minY, y[i]);
    maxY = Math.max(maxY, y[i]);
  }
  const coords: FlatLayout['coords'] = [];
  const margin = grid ? 1.2 * unit : 0.7 * unit;
  if (grid && (unroll || map.dimension === 2)) {
    for (let c = 0; c < grid.width; c++) {
      const text = columnOf(map.labels[c]);
      coords.push({ text, x: x[c], y: minY - 0.8 * unit }, { text, x: x[c], y: maxY + 0.8 * unit });
    }
    for (let r = 0; r < grid.height; r++) {
      const node = r * grid.width;
      const text = rowOf(map.labels[node]);
      coords.push({ text, x: minX - 0.8 * unit, y: y[node] }, { text, x: maxX + 0.8 * unit, y: y[node] });
    }
  }
  if (n === 0) return { x, y, radius: 1, viewBox: [0, 0, 1, 1], edges, stubs, coords };
  return {
    x,
    y,
    radius,
    viewBox: [minX - margin, minY - margin, maxX - minX + 2 * margin, maxY - minY + 2 * margin],
    edges,
    stubs,
    coords,
  };
}

/** "AB12" → "AB". */
export function columnOf(label: string): string {
  return label.replace(/[0-9]+$/, '');
}

/** "AB12" → "12". */
export function rowOf(label: string): string {
  const m = label.match(/[0-9]+$/);
  return m ? m[0] : label;
}

/** The node nearest to a point of the flat layout, if within a stone's radius. */
export function nodeAt(layout: FlatLayout, px: number, py: number): number | null {
  let best: number | null = null;
  let bestD = layout.radius * layout.radius;
  for (let i = 0; i < layout.x.length; i++) {
    const d = (layout.x[i] - px) ** 2 + (layout.y[i] - py) ** 2;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

export interface SpatialFrame {
  center: [number, number, number];
  radius: number;
  /** Stone radius in space. */
  stone: number;
}

/** The bounding sphere of a map drawn in space, and its stone size. */
export function spatialFrame(map: MapView): SpatialFrame {
  const n = map.nodes;
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (let i = 0; i < n; i++) {
    cx += map.x[i];
    cy += map.y[i];
    cz += map.z[i] ?? 0;
  }
  cx /= Math.max(1, n);
  cy /= Math.max(1, n);
  cz /= Math.max(1, n);
  let radius = 0;
  for (let i = 0; i < n; i++) {
    radius = Math.max(radius, Math.hypot(map.x[i] - cx, map.y[i] - cy, (map.z[i] ?? 0) - cz));
  }
  const lengths = map.edges.map(([a, b]) =>
    Math.hypot(map.x[a] - map.x[b], map.y[a] - map.y[b], (map.z[a] ?? 0) - (map.z[b] ?? 0)),
  );
  // A stone is at most half an edge across: neighbours never seem to touch, and the lines
  // between them stay visible.
  return { center: [cx, cy, cz], radius: radius || 1, stone: 0.25 * (median(lengths) || 1) };
}

/** The opaque body under a surface map's nodes (centred coordinates, as the frame's): it hides
 *  the far side, so the near side reads as a board. 3-D lattices have none. */
export type SolidBody =
  | { kind: 'sphere'; radius: number }
  | { kind: 'torus'; ring: number; tube: number }
  | { kind: 'box'; half: [number, number, number] }
  | { kind: 'cylinder'; radius: number; height: number };

export function solidBody(map: MapView, frame: SpatialFrame): SolidBody | null {
  const n = map.nodes;
  if (n === 0) return null;
  const [cx, cy, cz] = frame.center;
  const p = (i: number): [number, number, number] => [map.x[i] - cx, map.y[i] - cy, (map.z[i] ?? 0) - cz];
  const family = map.spec.split(':')[0];
  // Just under the nodes: stones sit on the surface, half outside it.
  const inset = frame.stone * 0.5;
  if (family === 'torus' || family === 'klein') {
    // The ring lies in the x-y plane around the z axis (the generator's drawing).
    let lo = Infinity;
    let hi = 0;
    for (let i = 0; i < n; i++) {
      const [x, y] = p(i);
      const rho = Math.hypot(x, y);
      lo = Math.min(lo, rho);
      hi = Math.max(hi, rho);
    }
    const ring = (lo + hi) / 2;
    const tube = (hi - lo) / 2 - inset;
    return tube > 0 ? { kind: 'torus', ring, tube } : null;
  }
  if (family === 'cylinder') {
    // Around the y axis.
    let radius = Infinity;
    let height = 0;
    for (let i = 0; i < n; i++) {
      const [x, y, z] = p(i);
      radius = Math.min(radius, Math.hypot(x, z));
      height = Math.max(height, 2 * Math.abs(y));
    }
    return { kind: 'cylinder', radius: radius - inset, height };
  }
  if (family === 'cube') {
    const half: [number, number, number] = [0, 0, 0];
    for (let i = 0; i < n; i++) p(i).forEach((v, k) => (half[k] = Math.max(half[k], Math.abs(v))));
    return { kind: 'box', half: half.map((h) => h - inset) as [number, number, number] };
  }
  // Sphere-like maps (Goldberg): every node about as far from the centre.
  let inner = Infinity;
  for (let i = 0; i < n; i++) inner = Math.min(inner, Math.hypot(...p(i)));
  return inner > 0.9 * frame.radius ? { kind: 'sphere', radius: inner - inset } : null;
}

/** The direction a node faces out of its body (unit length): where to look at it from. */
export function outward(body: SolidBody | null, point: [number, number, number]): [number, number, number] {
  const [x, y, z] = point;
  let d: [number, number, number];
  if (body?.kind === 'torus') {
    const rho = Math.hypot(x, y) || 1;
    // Away from the nearest point of the ring's centre line.
    d = [x - (x / rho) * body.ring, y - (y / rho) * body.ring, z];
  } else if (body?.kind === 'cylinder') {
    d = [x, 0, z];
  } else if (body?.kind === 'box') {
    // The face the node is on: the axis where it is furthest out relative to the box.
    const r = [Math.abs(x) / body.half[0], Math.abs(y) / body.half[1], Math.abs(z) / body.half[2]];
    const k = r.indexOf(Math.max(...r));
    d = [0, 0, 0];
    d[k] = Math.sign(point[k]) || 1;
  } else d = [x, y, z];
  const len = Math.hypot(...d);
  return len > 1e-9 ? [d[0] / len, d[1] / len, d[2] / len] : [0, 0, 1];
}

/** Camera distance that fits a sphere of `radius` in a view of `fovDegrees` (vertical) and `aspect`. */
export function cameraDistance(radius: number, fovDegrees: number, aspect: number): number {
  const v = (fovDegrees * Math.PI) / 360;
  const h = Math.atan(Math.tan(v) * aspect);
  return (1.15 * radius) / Math.sin(Math.min(v, h));
}
