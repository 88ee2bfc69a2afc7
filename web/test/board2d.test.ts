import { describe, expect, it } from 'vitest';
import { starPoints } from '../src/board2d';
import { gridMap } from './fixtures';

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
