// The status line (whose turn, a refusal, the system's own words) and the viewer's role
// (spectators are told so and get no play controls).

import type { GameContext } from './context';
import { decision } from './decision';

export function renderStatus(ctx: GameContext) {
  const { model } = ctx;
  const status = ctx.el.status;
  const info = model.info;
  const s = model.state;
  const names = model.naming();
  const deciding = decision(ctx);
  delete status.dataset.error;
  if (!info) return;
  if (ctx.refusal !== null) {
    status.dataset.error = ctx.refusal;
    status.textContent = `Refused: ${ctx.refusal}`;
  } else if (info.status === 'open') {
    const free = info.seats.filter((x) => x.user_id === null && x.kind?.kind !== 'bot').length;
    status.textContent = `Waiting for ${free} more player${free === 1 ? '' : 's'}.`;
  } else if (info.abandoned) {
    status.textContent = 'The game was abandoned: it ended with no result.';
  } else if (info.status === 'finished' || s?.outcome) {
    status.textContent = 'The game is over.';
  } else if (s && model.ui.status?.(s, names, ctx.myTurn())) {
    status.textContent = model.ui.status(s, names, ctx.myTurn()) ?? '';
  } else if (deciding) {
    status.textContent = deciding.status(names);
  } else if (s && s.to_move !== null) {
    status.textContent = ctx.myTurn() ? 'Your turn.' : `${names.player(s.to_move)} to play.`;
  }
  status.classList.toggle('my-turn', ctx.myTurn());
}

/** Spectators are told so and get no play controls; nobody gets them once the game is over. */
export function renderRole(ctx: GameContext) {
  const { model } = ctx;
  const seat = ctx.seat();
  const live = model.info?.status === 'live';
  ctx.el.watching.hidden = seat !== null || model.info?.status === 'open';
  // Placing is for play, not for a decision taken together.
  ctx.el.placeForm.hidden = seat === null || !live || decision(ctx) !== null;
}
