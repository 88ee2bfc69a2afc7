import { describe, expect, it } from 'vitest';
import { starPoints } from '../src/board2d';
import { gridMap } from './fixtures';
import { viewMarks } from './markers';

describe('star points', () => {
  it('marks the nine hoshi of 19×19 and the five of 9×9', () => {
    const big = starPoints(gridMap(19, 19));
    expect(big).toHaveLength(9);
    expect(big).toContain(3 * 19 + 3);
    expect(big).toContain(9 * 19 + 9);
    const small = starPoints(gridMap(9, 9));
    expect(small.sort((a, b) => a - b)).toEqual([2 * 9 + 2, 2 * 9 + 6, 4 * 9 + 4, 6 * 9 + 2, 6 * 9 + 6]);
  });

  it('marks nothing on odd sizes, rectangles and wrapped grids', () => {
    expect(starPoints(gridMap(7, 7))).toEqual([]);
    expect(starPoints(gridMap(19, 13))).toEqual([]);
    expect(starPoints(gridMap(19, 19, true))).toEqual([]);
  });
});

describe('rules diagrams', () => {
  it('read stones, claims and the last move from rows of text', async () => {
    const { diagramBoard } = await import('../src/diagrams');
    const { map, view } = diagramBoard(['.X.', 'xO*.', 'o..']);
    expect(map.nodes).toBe(9);
    expect(map.grid).toEqual({ width: 3, height: 3, wrap: false });
    expect(view.board).toEqual([null, 0, null, null, 1, null, null, null, null]);
    expect(viewMarks(view).claims?.[3]).toBe(0);
    expect(viewMarks(view).claims?.[6]).toBe(1);
    expect(view.lastMove).toBe(4);
    expect(map.labels[0]).toBe('A3');
    expect(map.edges).toHaveLength(12);
  });
});
