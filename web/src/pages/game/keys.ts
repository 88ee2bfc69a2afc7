// The game page's keys: the system's buttons, P to pass, Enter and Escape for a placement
// waiting for confirmation, and ? for this list. Keys never act while the player types in a
// field or works a control, and a pass that would end play asks to be confirmed first.

import { h, toast } from '../../dom';
import { passEndsPlay } from '../../systems';
import { confirmPlacement } from './actions';
import type { GameContext } from './context';

/** Whether a key press belongs to a form control (typing a chat line, a label, a choice). */
export function isControl(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  return (target as Element).closest('input, select, textarea, [contenteditable="true"]') !== null;
}

/** Passes, or, where this pass would end play, asks for a second press first (as OGS does): a
 *  single stray P once ended GoBeyond games. */
export function pass(ctx: GameContext) {
  const s = ctx.model.state;
  if (s && passEndsPlay(ctx.model.ui, s) && !ctx.passArmed) {
    ctx.passArmed = true;
    ctx.passArmedAt = ctx.model.seq;
    // Said in the toast, which moves nothing: the buttons keep their places.
    toast('This pass ends play: press Pass again to confirm, or play on.');
    ctx.render();
    return;
  }
  ctx.passArmed = false;
  void ctx.act({ type: 'pass' });
}

/** An armed pass lasts while the game stands where it was pressed. */
export function disarmIfMoved(ctx: GameContext) {
  if (ctx.passArmed && ctx.model.seq !== ctx.passArmedAt) ctx.passArmed = false;
}

/** The keys, for the "?" list: the system's buttons first. */
function keyList(ctx: GameContext): [string, string][] {
  const s = ctx.model.state;
  const buttons = s ? ctx.model.ui.buttons(s, ctx.map) : [];
  return [
    ...buttons.map((b): [string, string] => [b.key.toUpperCase(), b.label]),
    ['P', 'Pass (press twice when the pass would end play)'],
    ['Arrows', 'On the board (Tab to it): move to the neighbouring point that way; Enter or Space plays there'],
    ['Enter', 'Place the stone waiting for confirmation'],
    ['Escape', 'Cancel the stone or the pass waiting for confirmation; close this list'],
    ['?', 'Show or hide this list'],
  ];
}

/** Shows or hides the list of keys. */
export function toggleKeyHelp(ctx: GameContext, show = ctx.el.keyHelp.hidden) {
  const el = ctx.el.keyHelp;
  el.replaceChildren(
    h('h3', {}, 'Keys'),
    h('dl', {}, ...keyList(ctx).flatMap(([k, what]) => [h('dt', {}, h('kbd', {}, k)), h('dd', {}, what)])),
    h('p', { class: 'muted small' }, 'Keys do nothing while you type in a field (the chat, "place at").'),
    h('button', { type: 'button', id: 'key-help-close', onclick: () => toggleKeyHelp(ctx, false) }, 'Close'),
  );
  el.hidden = !show;
}

export function onKey(ctx: GameContext, e: KeyboardEvent) {
  if (isControl(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === '?') {
    toggleKeyHelp(ctx);
    return;
  }
  if (e.key === 'Escape') {
    if (!ctx.el.keyHelp.hidden) toggleKeyHelp(ctx, false);
    if (ctx.pending !== null || ctx.passArmed) {
      ctx.pending = null;
      ctx.passArmed = false;
      ctx.render();
    }
    return;
  }
  // Enter and space on a focused button press that button, not a game key.
  if (e.target instanceof HTMLButtonElement && (e.key === 'Enter' || e.key === ' ')) return;
  const { model } = ctx;
  const key = e.key.toLowerCase();
  const button = model.state && model.ui.buttons(model.state, ctx.map).find((b) => b.key === key);
  if (button && ctx.myTurn()) void ctx.act(button.input);
  else if (key === 'p' && ctx.myTurn() && (model.state ? (model.ui.passAllowed?.(model.state) ?? true) : false)) pass(ctx);
  else if (e.key === 'Enter' && ctx.pending !== null) confirmPlacement(ctx);
}
