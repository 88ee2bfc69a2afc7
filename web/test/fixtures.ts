import type { MapView } from '../src/types';

/** A w×h grid map view, wrapped in both directions when `wrap` (a torus). */
export function gridMap(w: number, h: number, wrap = false): MapView {
  const x: number[] = [];
  const y: number[] = [];
  const z: number[] = [];
  const labels: string[] = [];
  const edges: [number, number][] = [];
  const letters = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (wrap) {
        // Any 3-D drawing will do: only the grid numbering matters for the wrapped view.
        const a = (2 * Math.PI * c) / w;
        const b = (2 * Math.PI * r) / h;
        x.push((2 + Math.cos(b)) * Math.cos(a));
        y.push((2 + Math.cos(b)) * Math.sin(a));
        z.push(Math.sin(b));
      } else {
        x.push(c);
        y.push(r);
      }
      labels.push(`${letters[c]}${h - r}`);
      const i = r * w + c;
      if (c + 1 < w) edges.push([i, i + 1]);
      else if (wrap) edges.push([r * w, i]);
      if (r + 1 < h) edges.push([i, i + w]);
      else if (wrap) edges.push([c, i]);
    }
  }
  return {
    name: wrap ? `torus ${w}x${h}` : `square ${w}x${h}`,
    spec: wrap ? `torus:${w}x${h}` : `rect:${w}x${h}`,
    dimension: wrap ? 3 : 2,
    nodes: w * h,
    x,
    y,
    z: wrap ? z : [],
    labels,
    edges,
    grid: { width: w, height: h, wrap },
    start_points: [],
  };
}
