// The end of the game: the won/lost banner, the final ranking, a rematch and the review link.

import { api } from '../../api';
import { clear, h, toast } from '../../dom';
import type { Outcome } from '../../protocol';
import type { GameContext } from './context';
import { swatch } from './players';

export function renderResult(ctx: GameContext) {
  const { model, id } = ctx;
  const { result: resultEl, banner } = ctx.el;
  const o = model.state?.outcome ?? model.info?.outcome;
  resultEl.hidden = !o;
  banner.hidden = true;
  if (!o) return;
  clear(resultEl);
  const names = model.naming();
  const seat = ctx.seat();
  if (seat !== null) {
    const place = o.places?.[seat] ?? o.ranking.indexOf(seat) + 1;
    const shared = (o.places ?? []).filter((q) => q === place).length > 1;
    banner.textContent = place === 1 ? (shared ? 'A draw: you share first place.' : 'You won!') : `You lost: place ${place} of ${o.ranking.length}.`;
    banner.className = `banner ${place === 1 ? 'won' : 'lost'}`;
    banner.hidden = false;
  }
  // How each player's game ended, beside their score.
  const ended = (p: number): string => {
    if (!model.state || !model.ui.resigned(model.state, p)) return '';
    const timedOut = model.ui.timedOut?.(model.state, p) ?? (o.reason === 'time' && o.ranking.at(-1) === p);
    return timedOut ? ' (timed out)' : ' (resigned)';
  };
  const style = (p: number) => (model.state ? (model.ui.seatStyle?.(model.state, p) ?? p) : p);
  // A resignation or a time-out decides the game: the scores of that moment mean nothing.
  const scored = !endedEarly(o);
  // The state has it from the move that ended the game; the info from the next sync.
  const text = resultText(model.state) ?? model.info?.result_text;
  if (text) resultEl.append(h('p', { class: 'result-text', id: 'result-text' }, `Result: ${text}`));
  resultEl.append(
    h('h3', {}, 'Final ranking'),
    h('table', { class: 'ranking', id: 'ranking' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Place'), h('th', {}, 'Player'), scored ? h('th', {}, 'Score') : null)),
      h('tbody', {}, ...o.ranking.map((p, k) => h('tr', {},
        h('td', {}, String(o.places?.[p] ?? k + 1)),
        h('td', {}, swatch(style(p), model.players), ' ', names.player(p), ended(p)),
        scored ? h('td', {}, String(o.scores[p])) : null))),
    ),
    ...[model.state ? (model.ui.countTable?.(model.state, names) ?? null) : null, unratedNote(ctx), seat !== null ? rematchButton(ctx) : null, ctx.rematchOffer].filter((x) => x !== null),
    h('p', {}, `${model.ui.endWords?.(o) ?? `Ended by ${o.reason.replace('_', ' ')}.`} `,
      o.tie_broken ? 'Equal scores were ordered by turn position (the later first). ' : '',
      h('a', { href: `#/review/${id}`, id: 'review-link' }, 'Review the game')),
  );
}

/** Whether a resignation or a time-out ended the game: one player was left, whatever the
 *  scores said. */
export function endedEarly(o: Outcome): boolean {
  return o.reason === 'resignation' || o.reason === 'time';
}

/** The result in the system's notation, for states that carry one (classic Go's `result`). */
export function resultText(state: unknown): string | null {
  const r = (state as { result?: unknown } | null)?.result;
  return typeof r === 'string' ? r : null;
}

/** A rated game that changed no rating: aborted (it ended before every player's second move),
 * or its players are not independent accounts (the server's reason). */
function unratedNote(ctx: GameContext): HTMLElement | null {
  const info = ctx.model.info;
  if (!info?.rated || !info.unrated) return null;
  const text = info.aborted
    ? 'Aborted: the game ended before every player had made two moves, so no rating changed.'
    : `No rating changed (${info.unrated.replace(/^unrated: /, '')}).`;
  return h('p', { class: 'muted', id: 'unrated' }, text);
}

function rematchButton(ctx: GameContext): HTMLElement {
  return h('button', {
    id: 'rematch', class: 'primary',
    onclick: async () => {
      try {
        const r = await api.rematch(ctx.id);
        if (r.invite) sessionStorage.setItem(`invite-${r.game.id}`, r.invite);
        location.hash = `#/game/${r.game.id}`;
      } catch (e) {
        toast((e as Error).message, 'error');
      }
    },
  }, 'Rematch');
}
