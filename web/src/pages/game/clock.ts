// The turn clock (from the server's deadline) and the sounds of the game's moments.

import { type SoundMoment, play, soundsFor } from '../../sounds';
import type { GameContext } from './context';
import { durationText } from '../../time';

export function renderClock(ctx: GameContext) {
  const { model } = ctx;
  const el = ctx.el.clock;
  const c = model.clock;
  if (!c || c.deadline_ms === null || model.info?.status !== 'live') {
    el.textContent = '';
    return;
  }
  // The server's deadline against our clock: a few hundred ms of skew at most.
  const left = Math.max(0, c.deadline_ms - Date.now());
  const secs = Math.ceil(left / 1000);
  el.textContent = durationText(left);
  el.classList.toggle('low', secs <= 5);
}

function soundMoment(ctx: GameContext): SoundMoment {
  const mine = ctx.myTurn();
  const c = ctx.model.clock;
  const left = mine && c && c.deadline_ms !== null ? Math.ceil(Math.max(0, c.deadline_ms - Date.now()) / 1000) : null;
  return { seq: ctx.model.seq, myTurn: mine, mySecondsLeft: left };
}

export function renderSounds(ctx: GameContext) {
  const now = soundMoment(ctx);
  if (ctx.heard && ctx.prefs.sound && ctx.model.info?.status === 'live') for (const k of soundsFor(ctx.heard, now)) play(k);
  ctx.heard = now;
}
