// An undo request: the players asked answer it, the asker waits, the others are told.

import { api } from '../../api';
import { clear, h, toast } from '../../dom';
import type { UndoNote } from '../../protocol';
import type { Naming } from '../../words';
import type { GameContext } from './context';

/** How an undo request ended, with the seat named as the page names it ("White (rita)"). */
export function undoNote(note: UndoNote, names: Naming): string {
  switch (note.kind) {
    case 'declined':
      return `${names.player(note.seat)} declined the undo`;
    case 'took_back':
      return `${names.player(note.seat)} took back a move`;
    default:
      return 'The undo request lapsed: the game moved on';
  }
}

/** Why the viewer's seat may not ask for an undo now (null: it may). */
export function undoRefused(ctx: GameContext): string | null {
  const info = ctx.model.info;
  const seat = ctx.seat();
  if (!info || seat === null) return 'You hold no seat in this game';
  if (info.undo) return 'An undo request is waiting for answers';
  const why = info.undo_refused?.[seat];
  // An older server sends nothing: the button stays as it was.
  if (why === undefined || why === null) return null;
  return why.charAt(0).toUpperCase() + why.slice(1);
}

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
