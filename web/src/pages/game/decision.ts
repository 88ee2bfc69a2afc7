// The card of a decision the seats take together outside the turn order (Clean-Up, classic
// Go's dead stones): its content is the system's.

import { clear } from '../../dom';
import type { Decision } from '../../systems';
import type { GameContext } from './context';

/** The decision open now, if any. */
export function decision(ctx: GameContext): Decision | null {
  const s = ctx.model.state;
  return (s && ctx.model.ui.decision?.(s, ctx.map)) ?? null;
}

export function renderDecision(ctx: GameContext) {
  const el = ctx.el.cleanup;
  const d = decision(ctx);
  el.hidden = !d;
  if (!d) return;
  clear(el);
  el.append(...d.card({
    seat: ctx.seat(),
    selected: ctx.selected,
    busy: ctx.busy,
    names: ctx.model.naming(),
    map: ctx.map,
    act: async (input, clearSelection) => {
      await ctx.act(input);
      if (clearSelection) ctx.selected = new Set();
    },
  }));
}
