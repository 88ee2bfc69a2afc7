import { describe, expect, it } from 'vitest';
import { cameraDistance, columnOf, flatLayout, nodeAt, outward, rowOf, solidBody, spatialFrame, views } from '../src/layout';
import { gridMap } from './fixtures';

describe('flat layout', () => {
  it('draws a square grid with stones just under half a step and coordinates on all four sides', () => {
    const map = gridMap(9, 9);
    const l = flatLayout(map);
    expect(l.radius).toBeCloseTo(0.47);
    expect(l.edges).toHaveLength(map.edges.length);
    expect(l.stubs).toHaveLength(0);
    // 9 columns × top and bottom, 9 rows × left and right.
    expect(l.coords).toHaveLength(36);
    expect(l.coords.map((c) => c.text)).toContain('J');
    const [x0, y0, w, h] = l.viewBox;
    expect(x0).toBeLessThan(-0.8);
    expect(y0).toBeLessThan(-0.8);
    expect(x0 + w).toBeGreaterThan(8.8);
    expect(y0 + h).toBeGreaterThan(8.8);
  });

  it('unrolls a torus into its grid, turning the wrap edges into outward stubs', () => {
    const map = gridMap(5, 4, true);
    expect(views(map)).toEqual({ flat: true, spatial: true, wrapped: true });
    const l = flatLayout(map, 'wrapped');
    expect(Array.from(l.x.slice(0, 6))).toEqual([0, 1, 2, 3, 4, 0]);
    expect(Array.from(l.y.slice(0, 6))).toEqual([0, 0, 0, 0, 0, 1]);
    // Every wrap edge (4 rows + 5 columns) gives two stubs.
    expect(l.stubs).toHaveLength(2 * (4 + 5));
    expect(l.edges).toHaveLength(map.edges.length - 9);
    // The stub of the right-hand node of a row points right, off the board.
    const right = l.stubs.find((s) => s.node === 4);
    expect(right?.dx).toBeGreaterThan(0);
    const left = l.stubs.find((s) => s.node === 0 && s.dy === 0);
    expect(left?.dx).toBeLessThan(0);
  });

  it('finds the node under a point, and nothing between nodes', () => {
    const l = flatLayout(gridMap(3, 3));
    expect(nodeAt(l, 1.1, 0.9)).toBe(4);
    expect(nodeAt(l, 0.5, 0.5)).toBe(null);
  });

  it('splits grid labels into column and row', () => {
    expect(columnOf('AB12')).toBe('AB');
    expect(rowOf('AB12')).toBe('12');
    expect(rowOf('17')).toBe('17');
  });
});

describe('3-D framing', () => {
  it('centres a torus and fits it in the camera', () => {
    const map = gridMap(12, 8, true);
    const f = spatialFrame(map);
    f.center.forEach((c) => expect(Math.abs(c)).toBeLessThan(1e-9));
    expect(f.radius).toBeCloseTo(3, 5);
    expect(f.stone).toBeGreaterThan(0);
    expect(f.stone).toBeLessThan(1);
    const d = cameraDistance(f.radius, 40, 1);
    // The sphere's edge is inside the vertical half-angle of 20 degrees.
    expect(Math.asin(f.radius / d)).toBeLessThan((20 * Math.PI) / 180);
    // A narrow window needs the camera further away.
    expect(cameraDistance(f.radius, 40, 0.5)).toBeGreaterThan(d);
  });
});

describe('3-D bodies', () => {
  it('puts a solid torus just under the nodes, and looks at a node from its side of the tube', () => {
    const map = gridMap(12, 8, true);
    const f = spatialFrame(map);
    const body = solidBody(map, f);
    expect(body?.kind).toBe('torus');
    if (body?.kind !== 'torus') return;
    expect(body.ring).toBeCloseTo(2, 5);
    expect(body.tube).toBeLessThan(1);
    expect(body.tube).toBeGreaterThan(0.5);
    // The inside of the ring faces the axis; the top faces up.
    const inner = outward(body, [1, 0, 0]);
    expect(inner[0]).toBeCloseTo(-1, 5);
    expect(outward(body, [2, 0, 1])[2]).toBeCloseTo(1, 5);
  });

  it('gives a cube a box and its nodes their face, a sphere a globe, a 3-D lattice nothing', () => {
    const cube = { ...gridMap(2, 2), spec: 'cube:1', dimension: 3 as const, nodes: 6,
      x: [1, -1, 0, 0, 0, 0], y: [0, 0, 1, -1, 0, 0], z: [0, 0, 0, 0, 1, -1], edges: [[0, 2], [2, 1], [1, 3], [3, 0], [4, 0], [5, 1]] as [number, number][] };
    const f = spatialFrame(cube);
    const box = solidBody(cube, f);
    expect(box?.kind).toBe('box');
    expect(outward(box, [0.2, -0.1, 1])).toEqual([0, 0, 1]);
    const sphere = solidBody({ ...cube, spec: 'goldberg:1,0' }, f);
    expect(sphere?.kind).toBe('sphere');
    const lattice = { ...cube, spec: 'grid:3x3x3', nodes: 7, x: [...cube.x, 0], y: [...cube.y, 0], z: [...cube.z, 0] };
    expect(solidBody(lattice, spatialFrame(lattice))).toBeNull();
  });
});
