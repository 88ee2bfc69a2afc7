import { describe, expect, it } from 'vitest';
import type { MainMove, ReviewTree } from '../src/analysis_types';
import { buildTree, commentsAt, path, rows, step } from '../src/pages/review/tree';
import { chatByNode } from '../src/pages/review/timeline';
import { positionAt, valueLines } from '../src/pages/review/graph_geometry';
import { markCounts, markOf } from '../src/pages/review/marks';

const place = (node: number) => ({ type: 'place', node }) as never;
const moves = (n: number): MainMove[] =>
  Array.from({ length: n }, (_, i) => ({ at: i, player: i % 2, input: place(i), move_number: i + 1, at_ms: 1000 * (i + 1) }));

/** Three main moves; two answers to the first move (var 1, var 2), var 3 continues var 1, var 4
 *  answers var 1 too. */
const sample: ReviewTree = {
  total: 3,
  moves: moves(3),
  variations: [
    { id: 1, parent: { at: 1 }, player: 1, input: place(10), move_number: 2 },
    { id: 2, parent: { at: 1 }, player: 1, input: place(11), move_number: 2 },
    { id: 3, parent: { var: 1 }, player: 0, input: place(12), move_number: 3 },
    { id: 4, parent: { var: 1 }, player: 0, input: place(13), move_number: 3 },
    { id: 9, parent: { var: 99 }, player: 0, input: place(14), move_number: 3 },
  ],
  comments: [],
  may_edit: true,
  why_not: null,
};

describe('review tree', () => {
  const tree = buildTree(sample);

  it('links the main line and the variations, skipping orphans', () => {
    expect(tree.get('at:1')?.children).toEqual(['at:2', 'var:1', 'var:2']);
    expect(tree.get('var:1')?.children).toEqual(['var:3', 'var:4']);
    expect(tree.get('var:3')?.depth).toBe(3);
    expect(tree.has('var:9')).toBe(false);
    expect(path(tree, 'var:3')).toEqual(['at:0', 'at:1', 'var:1', 'var:3']);
  });

  it('walks with the arrow keys into a branch and back to the main line', () => {
    expect(step(tree, 'at:1', 'next')).toBe('at:2');
    expect(step(tree, 'at:2', 'down')).toBe('var:1');
    expect(step(tree, 'var:1', 'down')).toBe('var:2');
    expect(step(tree, 'var:2', 'down')).toBe('var:2');
    expect(step(tree, 'var:1', 'next')).toBe('var:3');
    expect(step(tree, 'var:3', 'prev')).toBe('var:1');
    expect(step(tree, 'var:1', 'up')).toBe('at:2');
    expect(step(tree, 'var:1', 'end')).toBe('var:3');
    expect(step(tree, 'at:1', 'end')).toBe('at:3');
    expect(step(tree, 'var:3', 'home')).toBe('at:0');
    expect(step(tree, 'at:3', 'next')).toBe('at:3');
  });

  it('lists each move, then the branches that replace it, nested', () => {
    expect(rows(tree).map((r) => `${r.key}/${r.indent}${r.branchStart ? '*' : ''}`)).toEqual([
      'at:1/0',
      'at:2/0',
      'var:1/1*',
      'var:3/1',
      'var:4/2*',
      'var:2/1*',
      'at:3/0',
    ]);
  });

  it('finds the comments of a node in the order written', () => {
    const c = (id: number, node: ReviewTree['comments'][number]['node'], at_ms: number) => ({ id, node, author: 'a', text: 't', at_ms });
    const list = [c(1, { at: 2 }, 50), c(2, { var: 1 }, 10), c(3, { at: 2 }, 20)];
    expect(commentsAt(list, 'at:2').map((x) => x.id)).toEqual([3, 1]);
    expect(commentsAt(list, 'var:1').map((x) => x.id)).toEqual([2]);
  });
});

describe('chat beside the moves', () => {
  it('puts each line after the last move made before it', () => {
    const line = (at_ms: number, text: string) => ({ id: at_ms, from: 'a', channel: 'players' as const, text, at_ms });
    const m = moves(3);
    m[1].at_ms = null; // an old record: the move takes the time of the one before
    const by = chatByNode(m, [line(500, 'hello'), line(1500, 'after one'), line(3500, 'gg'), line(1000, 'at one')]);
    expect(by.get('at:0')?.map((l) => l.text)).toEqual(['hello']);
    expect(by.get('at:2')?.map((l) => l.text)).toEqual(['at one', 'after one']);
    expect(by.get('at:3')?.map((l) => l.text)).toEqual(['gg']);
  });
});

describe('value graph', () => {
  const pos = (at: number, values: number[]) => ({ at, to_move: 0, values, best: [], playouts: 50 });
  it('draws one line per seat, the winner at the top', () => {
    const lines = valueLines([pos(2, [1, 0, 0.5]), pos(0, [0.5, 0.25, 0.25])], 3, 2, { width: 100, height: 40 });
    expect(lines).toEqual(['0,20 100,0', '0,30 100,40', '0,30 100,20']);
  });
  it('turns a click into a position', () => {
    expect(positionAt(49, 10, 100)).toBe(5);
    expect(positionAt(-5, 10, 100)).toBe(0);
    expect(positionAt(500, 10, 100)).toBe(10);
  });
});

describe('marks', () => {
  const moves = [
    { at: 0, player: 0, loss: 0.02 },
    { at: 1, player: 1, loss: 0.31, points_lost: 7.5, mark: 'blunder' as const },
    { at: 2, player: 0, loss: 0.08, mark: 'inaccuracy' as const },
  ];
  it('writes the signs players know, with what was lost', () => {
    expect(markOf(moves, 0)).toBeNull();
    expect(markOf(moves, 1)).toEqual({ symbol: '??', mark: 'blunder', title: 'Blunder: lost 31% of the win chance, 7.5 points' });
    expect(markOf(moves, 2)?.symbol).toBe('?!');
    expect(markCounts(moves, 2)).toEqual([
      { inaccuracy: 1, mistake: 0, blunder: 0 },
      { inaccuracy: 0, mistake: 0, blunder: 1 },
    ]);
  });
});
