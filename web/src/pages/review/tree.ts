// A game's review tree as the page walks it: the main line's nodes `at:0..at:total`, variation
// nodes `var:ID` hanging off any node, and the order the move list shows them in.

import type { NodeRef, ReviewTree, TreeComment } from '../../analysis_types';
import { refKey } from '../../analysis_types';
import type { RecordedAction } from '../../types';

export interface TreeNode {
  ref: NodeRef;
  key: string;
  parent: string | null;
  /** The main line's continuation first, then variations in the order they were made. */
  children: string[];
  /** The action that led here (null at the start). */
  player: number | null;
  input: RecordedAction | null;
  moveNumber: number | null;
  /** Actions from the start. */
  depth: number;
  main: boolean;
  author: string | null;
}

export type Tree = Map<string, TreeNode>;

export const START = 'at:0';

export function buildTree(t: ReviewTree): Tree {
  const tree: Tree = new Map();
  tree.set(START, node({ at: 0 }, null, null, null, null, 0, true, null));
  for (const m of [...t.moves].sort((a, b) => a.at - b.at)) {
    const parent = `at:${m.at}`;
    if (!tree.has(parent)) continue;
    const n = node({ at: m.at + 1 }, parent, m.player, m.input, m.move_number, m.at + 1, true, null);
    tree.set(n.key, n);
    tree.get(parent)?.children.push(n.key);
  }
  // Parents come before children (docs/formats.md); an orphan is skipped, not fatal.
  for (const v of t.variations) {
    const parent = tree.get(refKey(v.parent));
    if (!parent) continue;
    const n = node({ var: v.id }, parent.key, v.player, v.input, v.move_number ?? null, parent.depth + 1, false, v.author ?? null);
    tree.set(n.key, n);
    parent.children.push(n.key);
  }
  return tree;
}

function node(
  ref: NodeRef,
  parent: string | null,
  player: number | null,
  input: RecordedAction | null,
  moveNumber: number | null,
  depth: number,
  main: boolean,
  author: string | null,
): TreeNode {
  return { ref, key: refKey(ref), parent, children: [], player, input, moveNumber, depth, main, author };
}

/** Where the arrow keys go from `key`: → the first child, ← the parent, ↓/↑ the next or previous
 *  sibling (another branch of the same move), Home the start, End the end of the current line. */
export function step(tree: Tree, key: string, how: 'next' | 'prev' | 'down' | 'up' | 'home' | 'end'): string {
  const n = tree.get(key);
  if (!n) return START;
  switch (how) {
    case 'next':
      return n.children[0] ?? key;
    case 'prev':
      return n.parent ?? key;
    case 'home':
      return START;
    case 'end': {
      let cur = n;
      while (cur.children.length) cur = tree.get(cur.children[0]) ?? cur;
      return cur.key;
    }
    case 'down':
    case 'up': {
      const siblings = n.parent ? (tree.get(n.parent)?.children ?? [key]) : [key];
      const i = siblings.indexOf(key) + (how === 'down' ? 1 : -1);
      return siblings[Math.max(0, Math.min(siblings.length - 1, i))];
    }
  }
}

/** The nodes from the start to `key`, start first. */
export function path(tree: Tree, key: string): string[] {
  const out: string[] = [];
  for (let cur = tree.get(key); cur; cur = cur.parent ? tree.get(cur.parent) : undefined) out.push(cur.key);
  return out.reverse();
}

export interface Row {
  key: string;
  /** 0: the main line; 1: a variation of it; 2: a variation inside a variation… */
  indent: number;
  /** The first move of a branch (the list opens a new line for it). */
  branchStart: boolean;
}

/** The move list in reading order: each move, then the branches that replace it, each branch
 *  read to its end before the line goes on (as lichess and Sabaki show a tree). */
export function rows(tree: Tree): Row[] {
  const out: Row[] = [];
  const start = tree.get(START);
  if (!start || !start.children.length) return out;
  const line = (first: string, alternatives: string[], indent: number, branchStart: boolean) => {
    let cur: string | undefined = first;
    let alts = alternatives;
    let opens = branchStart;
    while (cur) {
      out.push({ key: cur, indent, branchStart: opens });
      opens = false;
      for (const a of alts) line(a, [], indent + 1, true);
      const kids: string[] = tree.get(cur)?.children ?? [];
      cur = kids[0];
      alts = kids.slice(1);
    }
  };
  line(start.children[0], start.children.slice(1), 0, false);
  return out;
}

export function commentsAt(comments: TreeComment[], key: string): TreeComment[] {
  return comments.filter((c) => refKey(c.node) === key).sort((a, b) => a.at_ms - b.at_ms || a.id - b.id);
}
