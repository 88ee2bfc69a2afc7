import { describe, expect, test } from 'vitest';
import { neighbourLists, stepCursor } from '../src/board_keys';

/** A w×h grid drawn with node i at (i % w, floor(i / w)), y downwards. */
function grid(w: number, hgt: number) {
  const edges: [number, number][] = [];
  for (let i = 0; i < w * hgt; i++) {
    if (i % w < w - 1) edges.push([i, i + 1]);
    if (i + w < w * hgt) edges.push([i, i + w]);
  }
  return { nodes: w * hgt, edges, at: (n: number) => ({ x: n % w, y: Math.floor(n / w) }) };
}

describe('the keyboard cursor', () => {
  test('moves to the neighbour lying the arrow way, and stops at the edge', () => {
    const g = grid(3, 3);
    const nb = neighbourLists(g);
    expect(nb[4]).toEqual([1, 3, 5, 7]);
    expect(stepCursor(4, 'ArrowRight', nb, g.at)).toBe(5);
    expect(stepCursor(4, 'ArrowLeft', nb, g.at)).toBe(3);
    expect(stepCursor(4, 'ArrowUp', nb, g.at)).toBe(1);
    expect(stepCursor(4, 'ArrowDown', nb, g.at)).toBe(7);
    expect(stepCursor(2, 'ArrowRight', nb, g.at)).toBe(2);
    expect(stepCursor(4, 'Enter', nb, g.at)).toBe(4);
  });

  test('on a hexagonal layout the nearest neighbour within 60° is taken', () => {
    // Node 0 at the centre, six around it at 60° steps from the right.
    const at = (n: number) => (n === 0 ? { x: 0, y: 0 } : { x: Math.cos(((n - 1) * Math.PI) / 3), y: Math.sin(((n - 1) * Math.PI) / 3) });
    const nb = neighbourLists({ nodes: 7, edges: [1, 2, 3, 4, 5, 6].map((n) => [0, n] as [number, number]) });
    expect(stepCursor(0, 'ArrowRight', nb, at)).toBe(1);
    expect(stepCursor(0, 'ArrowLeft', nb, at)).toBe(4);
    expect([2, 3]).toContain(stepCursor(0, 'ArrowDown', nb, at));
  });

  test('where positions are unknown (the far side of a sphere) it walks the neighbours in order', () => {
    const nb = neighbourLists({ nodes: 5, edges: [[2, 0], [2, 4], [2, 1]] });
    const nowhere = () => null;
    expect(stepCursor(2, 'ArrowRight', nb, nowhere)).toBe(4);
    expect(stepCursor(2, 'ArrowLeft', nb, nowhere)).toBe(1);
    expect(stepCursor(4, 'ArrowRight', nb, nowhere)).toBe(2);
  });
});

describe('rulers of a zoomed board', () => {
  test('tell columns (a name above and below) from rows (a name left and right)', async () => {
    const { splitCoordinates } = await import('../src/rulers');
    const { columns, rows } = splitCoordinates([
      { text: 'A', x: 10, y: -5 }, { text: 'A', x: 10, y: 105 },
      { text: 'B', x: 20, y: -5 }, { text: 'B', x: 20, y: 105 },
      { text: '1', x: -5, y: 90 }, { text: '1', x: 105, y: 90 },
    ]);
    expect(columns.map((c) => [c.text, c.x])).toEqual([['A', 10], ['B', 20]]);
    expect(rows.map((r) => [r.text, r.y])).toEqual([['1', 90]]);
  });
});
