// The move list: the main line numbered as the game counts moves, variations as indented
// branches under the move they replace, the game's chat between the moves, and the computer's
// marks. Every move is a button that shows its position.

import type { MoveJudgement } from '../../analysis_types';
import { clear, h } from '../../dom';
import type { ChatLine } from '../../protocol';
import { rows, type Tree } from './tree';
import { markOf } from './marks';

export interface MoveListInput {
  tree: Tree;
  current: string;
  /** The action in words ("Black D4"). */
  words(key: string): string;
  chat: Map<string, ChatLine[]>;
  judged: MoveJudgement[];
  comments: Set<string>;
  go(key: string): void;
}

export function renderMoveList(box: HTMLElement, m: MoveListInput): void {
  clear(box);
  const before = m.chat.get('at:0');
  if (before) box.append(...before.map(chatRow));
  for (const row of rows(m.tree)) {
    const n = m.tree.get(row.key);
    if (!n) continue;
    const mark = n.main ? markOf(m.judged, n.depth - 1) : null;
    const button = h(
      'button',
      {
        type: 'button',
        class: `move${row.key === m.current ? ' current' : ''}${n.main ? '' : ' variation'}${mark ? ` ${mark.mark}` : ''}`,
        'data-node': row.key,
        'aria-current': row.key === m.current ? 'true' : undefined,
        title: mark?.title,
        onclick: () => m.go(row.key),
      },
      h('span', { class: 'move-no' }, n.moveNumber !== null ? `${n.moveNumber}.` : '·'),
      ` ${m.words(row.key)}`,
      mark ? h('span', { class: 'mark', 'aria-label': mark.title }, ` ${mark.symbol}`) : null,
      m.comments.has(row.key) ? h('span', { class: 'has-comment', title: 'Has comments', 'aria-label': 'has comments' }, ' ●') : null,
    );
    box.append(
      h('div', { class: `move-row indent-${Math.min(row.indent, 4)}${row.branchStart ? ' branch-start' : ''}`, style: `--indent: ${row.indent}` }, button),
    );
    if (n.main) for (const line of m.chat.get(row.key) ?? []) box.append(chatRow(line));
  }
  box.querySelector('.move.current')?.scrollIntoView?.({ block: 'nearest' });
}

function chatRow(line: ChatLine): HTMLElement {
  return h('div', { class: `chat-row ${line.channel}` }, h('b', {}, line.from ?? '—'), ` ${line.text}`);
}
