// An undo request: the players asked answer it, the asker waits, the others are told.

import { api } from '../../api';
import { clear, h, toast } from '../../dom';
import type { GameContext } from './context';

export function renderUndo(ctx: GameContext) {
  const { model } = ctx;
  const el = ctx.el.undo;
  const request = model.info?.status === 'live' ? model.info.undo : null;
  el.hidden = !request;
  clear(el);
  if (!request) return;
  const names = model.naming();
  const seat = ctx.seat();
  const answer = (accept: boolean) => async () => {
    try {
      await api.undoAnswer(ctx.id, accept);
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  };
  if (seat !== null && request.waiting.includes(seat)) {
    el.append(
      h('p', {}, `${names.player(request.by)} asks to take back their last move.`),
      h('div', { class: 'row' },
        h('button', { id: 'undo-accept', class: 'primary', onclick: answer(true) }, 'Accept'),
        h('button', { id: 'undo-decline', onclick: answer(false) }, 'Decline')),
    );
  } else if (seat === request.by) {
    el.append(h('p', { id: 'undo-waiting' }, `Undo asked: waiting for ${request.waiting.map((p) => names.player(p)).join(', ')}.`));
  } else {
    el.append(h('p', {}, `${names.player(request.by)} asked to take back a move.`));
  }
}
