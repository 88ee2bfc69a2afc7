// An arena's part of the tournament page (docs/tournaments.md "Arena"): how long it still runs,
// counting down each second, the games in play and the games played, each linked to its game.
// An arena has no rounds to show: tables form as players come free.

import { h } from '../../dom';
import type { TournamentView } from './types';
import { clockText, gamesInPlay, tableText } from './words';

/** Games listed under "Played" at most (the standings count them all). */
const PLAYED_SHOWN = 60;

/** "Arena: ends in 4:05" (or "Arena: over"), counting down until it is taken off the page. */
export function arenaClock(view: TournamentView): HTMLElement {
  const left = view.arena?.ends_in_ms ?? null;
  const el = h('span', { id: 'arena-clock' });
  if (left === null) {
    el.textContent = 'Arena: starts when the tournament starts';
    return el;
  }
  const deadline = Date.now() + left;
  const tick = () => {
    const ms = deadline - Date.now();
    el.textContent = view.summary.state === 'running' && ms > 0 ? `Arena: ends in ${clockText(ms)}` : view.summary.state === 'running' ? 'Arena: time is up — the games in play finish' : 'Arena: over';
  };
  tick();
  const timer = window.setInterval(() => {
    // The page redraws on each read: a clock no longer shown stops.
    if (!el.isConnected) window.clearInterval(timer);
    else tick();
  }, 1000);
  return el;
}

export function arenaView(view: TournamentView): HTMLElement {
  const playing = gamesInPlay(view);
  const played = view.rounds.flatMap((r) => r.tables).filter((t) => t.places !== null).reverse();
  const line = (t: { seats: number[]; places: number[] | null; game_id: number | null }) =>
    h('li', { class: 'pairing' }, tableText(view, t.seats, t.places),
      t.game_id ? ' · ' : null,
      t.game_id ? h('a', { href: `#/game/${t.game_id}`, class: 'game-link' }, `game #${t.game_id}`) : null);
  return h('div', { id: 'arena' },
    h('h3', {}, `Playing now (${playing.length})`),
    playing.length ? h('ul', { id: 'arena-playing' }, ...playing.map((t) => line({ ...t, places: null }))) : h('p', { class: 'muted small' }, 'No game in play: a table forms as soon as two players are free.'),
    played.length ? h('h3', {}, `Played (${played.length})`) : null,
    played.length ? h('ul', { id: 'arena-played' }, ...played.slice(0, PLAYED_SHOWN).map(line)) : null);
}
