// The card of decisions taken together after play: Clean-Up (surrender or name dead stones) and
// classic Go's dead-stone phase.

import { clear, h } from '../../dom';
import type { CleanupUi } from '../../systems';
import type { GameContext } from './context';

/** GoBeyond's Clean-Up: surrender doomed stones (the default for systems that say nothing). */
const SURRENDER: CleanupUi = {
  intro: 'Click your groups that cannot live to surrender them (each surrendered stone pays whoever then claims its node). Then submit — possibly nothing.',
  chosen: (p) => (p.surrendered ? (p.surrendered.length ? `surrenders ${p.surrendered.join(', ')}` : 'surrenders nothing') : null),
  input: (nodes) => ({ type: 'surrender', nodes }),
  submit: (n) => (n ? `Surrender ${n} stone${n === 1 ? '' : 's'}` : 'Surrender nothing'),
};

function renderScoring(ctx: GameContext) {
  const { model, map } = ctx;
  const el = ctx.el.cleanup;
  const s = model.state;
  const seat = ctx.seat();
  const names = model.naming();
  el.hidden = false;
  clear(el);
  const accepted = new Set(s?.accepted ?? []);
  el.append(h('h3', {}, 'Dead stones'));
  const player = seat !== null && !s?.players[seat]?.resigned;
  el.append(h('p', {}, player
    ? 'Click a group to mark it dead (or alive again). Accept when the marking is right; any change asks everyone again. Resume to play on if you disagree.'
    : 'The players are agreeing on dead stones.'));
  const dead = (s?.dead ?? []).map((n) => map.labels[n]);
  el.append(h('p', { id: 'dead-list' }, `Marked dead: ${dead.join(', ') || 'nothing'}`));
  for (const p of s?.players ?? []) {
    if (p.resigned) continue;
    el.append(h('div', { class: 'muted' }, `${names.player(p.player)}: ${accepted.has(p.player) ? 'accepted' : 'deciding…'}`));
  }
  if (player && seat !== null && !accepted.has(seat)) {
    el.append(h('button', { id: 'accept-dead', class: 'primary', disabled: ctx.busy, onclick: () => ctx.act({ type: 'accept' }) }, 'Accept'));
    el.append(h('button', { id: 'resume-play', disabled: ctx.busy, onclick: () => ctx.act({ type: 'resume' }) }, 'Resume play'));
  }
}

export function renderCleanup(ctx: GameContext) {
  const { model, map } = ctx;
  const el = ctx.el.cleanup;
  const s = model.state;
  const seat = ctx.seat();
  if (s?.status === 'scoring' && model.info?.status === 'live') {
    renderScoring(ctx);
    return;
  }
  el.hidden = s?.phase !== 'clean_up';
  if (el.hidden || !s) return;
  clear(el);
  const names = model.naming();
  const mine = seat !== null && (s.awaiting_cleanup ?? []).includes(seat);
  const ui = model.ui.cleanup ?? SURRENDER;
  el.append(h('h3', {}, 'Clean-Up'));
  el.append(h('p', {}, mine ? ui.intro : 'Waiting for the other players to choose.'));
  const waiting = new Set(s.awaiting_cleanup ?? []);
  for (const p of s.players) {
    const choice = ui.chosen(p) ?? (waiting.has(p.player) ? 'choosing…' : 'done');
    el.append(h('div', { class: 'muted' }, `${names.player(p.player)}: `, choice));
  }
  if (mine) {
    el.append(h('p', {}, `Selected: ${[...ctx.selected].map((n) => map.labels[n]).join(', ') || 'nothing'}`));
    el.append(h('button', {
      id: 'surrender', class: 'primary', disabled: ctx.busy,
      onclick: async () => {
        await ctx.act(ui.input([...ctx.selected]));
        ctx.selected = new Set();
      },
    }, ui.submit(ctx.selected.size)));
  }
}
