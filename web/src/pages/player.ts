// A player's page: their rating in each rule system with its history, and their public games.

import { api } from '../api';
import { clear, h } from '../dom';
import type { PlayerProfile, RatedGame } from '../protocol';
import { systemUi } from '../systems';
import { ratingText, signed } from '../words';
import { session } from '../session';
import { vacationCard } from './vacation';

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

export async function playerPage(root: HTMLElement, name: string) {
  const p: PlayerProfile = await api.player(name);
  clear(root);
  const kind = p.kind === 'bot' ? ' (program)' : p.kind === 'guest' ? ' (guest)' : '';
  const ratings = p.ratings.length === 0
    ? h('p', { class: 'muted' }, 'No rated games yet.')
    : h('div', { class: 'ratings' }, ...p.ratings.map((r) => {
        const games = p.history.filter((g) => g.system === r.system);
        return h('div', { class: 'card rating', 'data-system': r.system },
          h('h3', {}, systemUi(r.system).title, ' ', h('span', { class: 'rating-value' }, ratingText(r.rating))),
          h('p', { class: 'muted' }, `${r.rating.games} rated game${r.rating.games === 1 ? '' : 's'}${r.rating.provisional ? ' · provisional (?) until a few more' : ''}`),
          games.length > 0 ? historyChart(games) : null,
        );
      }));
  const history = p.history.length === 0 ? null : h('div', { class: 'card' },
    h('h2', {}, 'Rated games'),
    h('table', { class: 'history', id: 'rating-history' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Rules'), h('th', {}, 'Place'), h('th', {}, 'Rating'))),
      h('tbody', {}, ...p.history.map((g) => h('tr', {},
        h('td', {}, h('a', { href: `#/review/${g.game}` }, `#${g.game}`)),
        h('td', {}, systemUi(g.system).title),
        h('td', {}, String(g.place)),
        h('td', {}, `${g.after} (${signed(g.after - g.before)})`),
      ))),
    ),
  );
  const games = h('div', { class: 'card' },
    h('h2', {}, 'Games'),
    p.games.length === 0 ? h('p', { class: 'muted' }, 'No public games.') : h('ul', { id: 'player-games' }, ...p.games.map((g) => h('li', {},
      h('a', { href: g.status === 'finished' ? `#/review/${g.id}` : `#/game/${g.id}` }, `#${g.id}`),
      ` ${systemUi(g.rules ?? undefined).title}, ${g.players} players, ${g.status}${g.rated ? ', rated' : ''}${ratedNote(g.result)}: `,
      g.seats.map((s) => s.user ?? (s.bot_level !== null ? `bot ${s.bot_level}` : 'open')).join(', '),
    ))),
  );
  // Only the player sees their own vacation.
  const me = await session.user().catch(() => null);
  const vacation = me?.name === p.name ? await vacationCard().catch(() => null) : null;
  root.append(h('section', { class: 'player-page', id: 'player-page' },
    h('div', { class: 'card' }, h('h1', {}, p.name, kind), ratings),
    vacation, history, games));
}

/** A finished rated game that changed no rating says so: aborted (too short), or unrated. */
function ratedNote(result: unknown): string {
  const r = result as { aborted?: boolean; unrated?: string } | null;
  if (r?.aborted) return ' (aborted)';
  return r?.unrated ? ' (unrated)' : '';
}
