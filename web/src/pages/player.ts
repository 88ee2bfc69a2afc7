// A player's page: their rating in each rule system and number of players with its history,
// their wins and losses, and their public games.

import { api } from '../api';
import { clear, h } from '../dom';
import type { GameSummary, PlayerProfile, RatedGame, SystemRating } from '../protocol';
import { systemUi } from '../systems';
import { plural, ratingText, signed } from '../words';
import { describeMap } from './lobby';
import { session } from '../session';
import { vacationCard } from './vacation';
import { playerSocial } from './player_social';

/** The rating over a system's rated games, oldest to newest, as a small line chart. */
export function historyChart(games: RatedGame[], width = 320, height = 90): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('class', 'rating-chart');
  svg.setAttribute('role', 'img');
  const points = [...games].reverse();
  const values = [points[0]?.before ?? 1500, ...points.map((g) => g.after)];
  svg.setAttribute('aria-label', `rating from ${values[0]} to ${values[values.length - 1]} over ${points.length} games`);
  const lo = Math.min(...values) - 10;
  const hi = Math.max(...values) + 10;
  const x = (i: number) => 6 + (i * (width - 12)) / Math.max(1, values.length - 1);
  const y = (v: number) => height - 6 - ((v - lo) * (height - 12)) / (hi - lo);
  const line = document.createElementNS(ns, 'polyline');
  line.setAttribute('points', values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '));
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'currentColor');
  line.setAttribute('stroke-width', '2');
  svg.append(line);
  values.forEach((v, i) => {
    const dot = document.createElementNS(ns, 'circle');
    dot.setAttribute('cx', x(i).toFixed(1));
    dot.setAttribute('cy', y(v).toFixed(1));
    dot.setAttribute('r', '3');
    dot.setAttribute('fill', 'currentColor');
    const title = document.createElementNS(ns, 'title');
    title.textContent = i === 0 ? `start: ${v}` : `game #${points[i - 1].game}: ${v}`;
    dot.append(title);
    svg.append(dot);
  });
  return svg;
}

/** "Classic Go, 2 players": ratings and records are kept per system and number of players. */
function poolTitle(system: string, players: number): string {
  return `${systemUi(system).title}, ${players} players`;
}

/** One rating pool: the rating (a rank where the system reads one) and its history chart. */
function ratingCard(r: SystemRating, history: RatedGame[]): HTMLElement {
  const games = history.filter((g) => g.system === r.system && g.players === r.players);
  return h('div', { class: 'card rating', 'data-system': r.system, 'data-players': r.players },
    h('h3', {}, poolTitle(r.system, r.players), ' ', h('span', { class: 'rating-value' }, ratingText(r.rating))),
    h('p', { class: 'muted' }, `${plural(Number(r.rating.games), 'rated game')}${r.rating.provisional ? ' · provisional (?) until a few more' : ''}`),
    games.length > 0 ? historyChart(games) : null,
  );
}

/** Wins, draws and losses per system and number of players. */
function recordTable(p: PlayerProfile): HTMLElement | null {
  if (p.record.length === 0) return null;
  return h('table', { class: 'history', id: 'player-record' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Rules'), h('th', {}, 'Won'), h('th', {}, 'Drawn'), h('th', {}, 'Lost'))),
    h('tbody', {}, ...p.record.map((r) => h('tr', { 'data-system': r.system, 'data-players': r.players },
      h('td', {}, poolTitle(r.system, r.players)),
      h('td', { class: 'won' }, String(r.won)),
      h('td', { class: 'drawn' }, String(r.drawn)),
      h('td', { class: 'lost' }, String(r.lost)),
    ))),
  );
}

/** A game on the page: when, what, against whom, and how it ended for the player. */
function gameItem(g: GameSummary, name: string): HTMLElement {
  const others = g.seats.filter((s) => s.user !== name)
    .map((s) => s.user ?? (s.bot_level !== null ? `bot ${s.bot_level}` : 'open seat'));
  const date = new Date(g.created_ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  const ended = g.status === 'finished' ? (g.result_text ?? placeText(g, name)) : g.status;
  return h('li', { 'data-game': g.id },
    h('a', { href: g.status === 'finished' ? `#/review/${g.id}` : `#/game/${g.id}` }, `#${g.id}`),
    ` ${date} · ${systemUi(g.rules ?? undefined).title} on ${describeMap(g.map)}${g.rated ? ', rated' : ''} · against ${others.join(', ') || 'nobody yet'} · `,
    h('span', { class: 'game-result' }, ended + ratedNote(g.result)),
  );
}

/** "1st of 3", "won", "lost" from a stored result's places, for systems without a notation. */
function placeText(g: GameSummary, name: string): string {
  const r = g.result as { places?: number[]; abandoned?: boolean } | null;
  if (r?.abandoned) return 'abandoned';
  const seat = g.seats.find((s) => s.user === name)?.seat;
  const place = seat === undefined ? undefined : r?.places?.[seat];
  if (place === undefined) return 'finished';
  if (r?.places?.every((p) => p === place)) return 'drawn';
  if (g.players === 2) return place === 1 ? 'won' : 'lost';
  return `${ordinal(place)} of ${g.players}`;
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

export async function playerPage(root: HTMLElement, name: string) {
  const p: PlayerProfile = await api.player(name);
  clear(root);
  const kind = p.kind === 'bot' ? ' (program)' : p.kind === 'guest' ? ' (guest)' : '';
  const ratings = p.ratings.length === 0
    ? h('p', { class: 'muted' }, 'No rated games yet.')
    : h('div', { class: 'ratings' }, ...p.ratings.map((r) => ratingCard(r, p.history)));
  const history = p.history.length === 0 ? null : h('div', { class: 'card' },
    h('h2', {}, 'Rated games'),
    h('table', { class: 'history', id: 'rating-history' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Rules'), h('th', {}, 'Place'), h('th', {}, 'Rating'))),
      h('tbody', {}, ...p.history.map((g) => h('tr', {},
        h('td', {}, h('a', { href: `#/review/${g.game}` }, `#${g.game}`)),
        h('td', {}, poolTitle(g.system, g.players)),
        h('td', {}, `${ordinal(g.place)} of ${g.players}`),
        h('td', {}, `${g.after} (${signed(g.after - g.before)})`),
      ))),
    ),
  );
  const record = recordTable(p);
  const games = h('div', { class: 'card' },
    h('h2', {}, 'Games'),
    record,
    p.games.length === 0 ? h('p', { class: 'muted' }, 'No public games.') : h('ul', { id: 'player-games' }, ...p.games.map((g) => gameItem(g, p.name))),
  );
  // Only the player sees their own vacation.
  const me = await session.user().catch(() => null);
  const mine = me?.name === p.name;
  const vacation = mine ? await vacationCard().catch(() => null) : null;
  const account = mine
    ? h('p', { class: 'account-link' }, h('a', { href: '#/account', id: 'account-link' }, 'Your account: standing, your data, deleting it'))
    : null;
  root.append(h('section', { class: 'player-page', id: 'player-page' },
    h('div', { class: 'card' }, h('h1', {}, p.name, kind), playerSocial(p.name), account, ratings),
    vacation, history, games));
}

/** A finished rated game that changed no rating says so: aborted (too short), or unrated. */
function ratedNote(result: unknown): string {
  const r = result as { aborted?: boolean; unrated?: string } | null;
  if (r?.aborted) return ' (aborted)';
  return r?.unrated ? ' (unrated)' : '';
}
