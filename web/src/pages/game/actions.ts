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
  if (ctx.prefs.confirm) {
    // The confirmation's place is kept while nothing waits for it: buttons that appeared with
    // the first tap once pushed the board down a row on phones, so the second tap (the one
    // that confirms) landed three points lower.
    const waiting = ctx.pending !== null;
    const label = waiting ? `Place at ${map.labels[ctx.pending ?? 0]}` : 'Place at …';
    const hidden = waiting ? {} : { style: 'visibility: hidden', 'aria-hidden': 'true', tabindex: '-1' };
    el.append(h('button', { id: 'confirm-place', class: 'primary', disabled: !waiting, onclick: () => confirmPlacement(ctx), ...hidden }, label));
    el.append(h('button', { id: 'cancel-place', disabled: !waiting, onclick: () => { ctx.pending = null; ctx.render(); }, ...hidden }, 'Cancel'));
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
