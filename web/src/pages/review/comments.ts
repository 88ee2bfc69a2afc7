// Comments on the node in view: the list, and a form for those who may write.

import type { NodeRef, TreeComment } from '../../analysis_types';
import { api } from '../../api';
import { clear, h, toast } from '../../dom';
import { commentsAt } from './tree';

export interface CommentsInput {
  game: number;
  node: NodeRef;
  key: string;
  all: TreeComment[];
  mayWrite: boolean;
  whyNot: string | null;
  /** After a comment is stored: the page reloads the tree. */
  added(): void;
}

export function renderComments(box: HTMLElement, c: CommentsInput): void {
  const draft = box.querySelector<HTMLTextAreaElement>('#comment-text')?.value ?? '';
  clear(box);
  const list = commentsAt(c.all, c.key);
  box.append(h('h3', {}, 'Comments'));
  box.append(
    list.length
      ? h('ul', { id: 'comment-list' }, ...list.map((x) => h('li', { class: 'comment' }, h('b', {}, x.author), ` ${x.text}`)))
      : h('p', { class: 'muted', id: 'comment-list' }, 'No comments on this position.'),
  );
  if (!c.mayWrite) {
    if (c.whyNot) box.append(h('p', { class: 'muted' }, c.whyNot));
    return;
  }
  const text = h('textarea', { id: 'comment-text', rows: 2, maxlength: 1000, placeholder: 'A comment on this position', 'aria-label': 'Comment' });
  text.value = draft;
  const send = async (e: Event) => {
    e.preventDefault();
    const body = text.value.trim();
    if (!body) return;
    try {
      await api.addComment(c.game, c.node, body);
      text.value = '';
      c.added();
    } catch (err) {
      toast((err as Error).message, 'error');
    }
  };
  box.append(h('form', { class: 'comment-form', onsubmit: send }, text, h('button', { type: 'submit', id: 'comment-send' }, 'Comment')));
}
