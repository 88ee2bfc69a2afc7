// The board on the game page: what a click or a tap does, the hover line, and drawing.

import { toast } from '../../dom';
import type { GameContext } from './context';
import { decision } from './decision';

/** A click on `node`. */
export function pick(ctx: GameContext, node: number) {
  const { model } = ctx;
  const state = model.state;
  if (!state || model.info?.status !== 'live') return;
  const seat = ctx.seat();
  if (seat === null) return;
  // A decision taken together is open whoever's turn it is.
  const deciding = decision(ctx);
  if (deciding) {
    const r = deciding.click(node, seat, ctx.selected);
    if (r?.input) void ctx.act(r.input);
    else if (r?.selected) {
      ctx.selected = r.selected;
      ctx.render();
    }
    return;
  }
  if (!ctx.myTurn()) {
    toast('It is not your turn.');
    return;
  }
  const special = model.ui.clickInput?.(state, node, seat, ctx.picked);
  if (special) {
    if (special.say) toast(special.say);
    if (special.pick !== undefined) ctx.picked = special.pick;
    if (special.input) {
      ctx.picked = null;
      void ctx.act(special.input);
    }
    ctx.render();
    return;
  }
  if (ctx.prefs.confirm && ctx.pending !== node) {
    ctx.pending = node;
    ctx.render();
    return;
  }
  ctx.pending = null;
  void ctx.act({ type: 'place', node });
}

/** The "place at" field: a placement by the node's label. */
export function placeByLabel(ctx: GameContext) {
  const input = ctx.el.placeInput;
  const label = input.value.trim();
  if (!label) return;
  const node = ctx.map.labels.findIndex((l) => l.toLowerCase() === label.toLowerCase());
  if (node < 0) {
    toast(`There is no node ${label} on this map.`, 'error');
    return;
  }
  input.value = '';
  ctx.pending = null;
  void ctx.act({ type: 'place', node });
}

/** The pointer moved onto `node` (null: off the board). */
export function hovered(ctx: GameContext, node: number | null) {
  const before = ctx.hover;
  ctx.hover = node;
  ctx.el.hover.textContent = node === null ? '\u00a0' : describeNode(ctx, node);
  if (ctx.model.ui.hoverMarks && before !== node) drawBoard(ctx);
}

/** The hover line of a node: its label, and what the system says of its stone or emptiness. */
export function describeNode(ctx: GameContext, node: number): string {
  const { model } = ctx;
  const s = model.state;
  const label = ctx.map.labels[node];
  if (!s) return label;
  const stone = s.board[node];
  const names = model.naming();
  if (stone !== null && stone !== undefined) {
    const more = model.ui.describeStone?.(node, s, names);
    return `${label}: ${names.player(stone)}'s stone${more ? ` · ${more}` : ''}`;
  }
  return model.ui.describeEmpty(label, node, s, names);
}

/** The board alone (also on hover, for systems that mark something under the pointer). */
export function drawBoard(ctx: GameContext) {
  const { model, map } = ctx;
  const s = model.state;
  const viewer = { picked: ctx.picked, selected: ctx.selected, atari: ctx.prefs.atari, hover: ctx.hover };
  ctx.board.render({
    players: model.players,
    board: s?.board ?? [],
    lastMove: model.lastMove,
    mySeat: ctx.seat(),
    interactive: ctx.myTurn() && !ctx.busy,
    showLabels: ctx.prefs.labels,
    pending: ctx.pending,
    decorations: s ? model.ui.decorate(s, map, viewer) : undefined,
  });
}
