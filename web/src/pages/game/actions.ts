// The play controls: the system's buttons, Pass, Undo, Resign, the confirmation of a placement,
// and the system's own panel under them.

import { api } from '../../api';
import { clear, h, toast } from '../../dom';
import type { GameContext } from './context';
import { decision } from './decision';
import { pass } from './keys';
import { undoRefused } from './undo';

export function renderActions(ctx: GameContext) {
  const { model, map } = ctx;
  const el = ctx.el.actions;
  clear(el);
  el.classList.remove('confirming');
  const s = model.state;
  const live = model.info?.status === 'live';
  const myTurn = ctx.myTurn();
  const seat = ctx.seat();
  const busy = ctx.busy;
  // A decision taken together has its own card instead.
  if (!live || seat === null || !s || decision(ctx)) return;
  for (const b of model.ui.buttons(s, map)) {
    el.append(h('button', { id: b.id, disabled: !myTurn || busy, accesskey: b.key, onclick: () => ctx.act(b.input), title: b.title }, b.label));
  }
  const passable = model.ui.passAllowed?.(s) ?? true;
  // A pass that would end play is pressed twice: the first press arms it, saying so.
  const armed = ctx.passArmed && myTurn;
  el.append(h('button', {
    id: 'pass', class: armed ? 'primary' : undefined, 'data-armed': armed ? 'true' : undefined,
    disabled: !myTurn || busy || !passable, accesskey: 'p', onclick: () => pass(ctx),
    title: armed ? 'This pass ends play: press again to pass, Escape to keep playing' : model.ui.passTitle(s),
  }, armed ? 'Confirm pass' : 'Pass'));
  // Disabled, with the server's reason as its title, whenever asking would be refused (a
  // declined undo, nothing of the viewer's to take back, a window all decide in).
  const undoWhy = undoRefused(ctx);
  el.append(h('button', {
    id: 'undo', disabled: busy || undoWhy !== null, title: undoWhy ?? 'Ask the other players to let you take back your last move',
    onclick: async () => {
      try {
        await api.undo(ctx.id);
      } catch (e) {
        toast((e as Error).message, 'error');
      }
    },
  }, 'Undo'));
  if (model.ui.canResign !== false) el.append(h('button', {
    id: 'resign', class: 'danger', disabled: busy,
    onclick: () => {
      if (confirm('Resign this game? This cannot be undone.')) void ctx.act({ type: 'resign' });
    },
  }, 'Resign'));
  // A placement waiting for confirmation. On a phone the board lies under the play card, so
  // the card must not change height between the two taps (a row of buttons appearing with
  // the first tap once pushed the board down, and the second tap landed three points lower):
  // there the two buttons take the place of the others in the row (style.css,
  // `.actions.confirming`) instead of keeping an empty row for them at all times.
  const waiting = ctx.prefs.confirm && ctx.pending !== null;
  if (waiting) {
    el.classList.add('confirming');
    const label = `Place at ${map.labels[ctx.pending ?? 0]}`;
    el.append(h('span', { class: 'confirm-buttons' },
      h('button', { id: 'confirm-place', class: 'primary', onclick: () => confirmPlacement(ctx) }, label),
      h('button', { id: 'cancel-place', onclick: () => { ctx.pending = null; ctx.render(); } }, 'Cancel')));
  }
}

/** Sends the placement waiting for confirmation. */
export function confirmPlacement(ctx: GameContext) {
  const n = ctx.pending;
  ctx.pending = null;
  if (n !== null) void ctx.act({ type: 'place', node: n });
}

/** The system's panel for the viewer (a hand of cards, a dialog). */
export function renderPanel(ctx: GameContext) {
  const el = ctx.el.panel;
  clear(el);
  const s = ctx.model.state;
  const seat = ctx.seat();
  if (!s || seat === null) return;
  const panel = ctx.model.ui.panel?.(s, ctx.model.naming(), seat, (input) => void ctx.act(input));
  if (panel) el.append(panel);
}
