// The tournament page's tables: standings (each tie's reason under its row, visible on a phone
// too), the crosstable, and each round's pairings with links to the games.

import { h } from '../../dom';
import type { TournamentView } from './types';
import { type CrossLink, anyResult, crossTable, entrantName, standingLines, tableText, tieBreakLong, tieBreakShort } from './words';

export function standingsTable(view: TournamentView): HTMLElement {
  const lines = standingLines(view);
  if (lines.length === 0 || !anyResult(view)) return h('p', { class: 'muted', id: 'standings' }, 'No games played yet.');
  const tbs = view.standings.tie_breaks ?? [];
  const body = h('tbody', {});
  for (const l of lines) {
    body.append(h('tr', { 'data-entrant': l.entrant },
      h('td', { class: 'place' }, l.place),
      h('td', { class: 'who' }, l.name, ...l.notes.map((n) => h('span', { class: 'tag' }, n))),
      h('td', { class: 'num points' }, l.points),
      ...l.tieBreaks.map((v) => h('td', { class: 'num' }, v)),
      h('td', { class: 'num' }, String(l.games)),
    ));
    // The reason a tied row is above the next: its own line, read on every screen.
    if (l.why) body.append(h('tr', { class: 'why' }, h('td', {}), h('td', { colspan: 3 + tbs.length, class: 'muted small' }, l.why)));
  }
  return h('div', { class: 'table-scroll' },
    h('table', { class: 'standings', id: 'standings' },
      h('thead', {}, h('tr', {},
        h('th', {}, '#'), h('th', {}, 'Player'), h('th', { class: 'num' }, 'Points'),
        ...tbs.map((t) => h('th', { class: 'num', title: tieBreakLong(t) }, tieBreakShort(t))),
        h('th', { class: 'num', title: 'games played' }, 'Games'))),
      body));
}

export function crossTableView(view: TournamentView): HTMLElement | null {
  if (!view.crosstable?.length) return null;
  const t = crossTable(view);
  return h('div', { class: 'table-scroll' },
    h('table', { class: 'crosstable', id: 'crosstable' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, ''), ...t.head.map((n) => h('th', { class: 'num' }, n)))),
      h('tbody', {}, ...t.rows.map((r, i) => h('tr', {},
        h('td', { class: 'num' }, String(i + 1)),
        h('td', { class: 'who' }, r.name),
        ...r.cells.map((c, j) => h('td', { class: i === j ? 'num self' : 'num' }, ...crossCell(c, r.links[j] ?? []))))))));
}

/** A crosstable cell: each result a link to its game (a finished game's page shows its end and
 *  its review, as the pairings' links do); results with no game yet as text. */
function crossCell(text: string, links: CrossLink[]): (HTMLElement | string)[] {
  if (links.length === 0) return [text];
  return links.map((l) => (l.game === null ? l.text : h('a', { href: `#/game/${l.game}`, class: 'cross-game', title: `game #${l.game}` }, l.text)));
}

export function roundsView(view: TournamentView): HTMLElement {
  if (view.rounds.length === 0) return h('p', { class: 'muted', id: 'rounds' }, 'No round has been paired yet.');
  // The latest round first: what is being played now.
  const rounds = [...view.rounds].reverse();
  return h('div', { id: 'rounds' }, ...rounds.map((r) =>
    h('div', { class: 'round', 'data-round': r.number },
      h('h3', {}, `Round ${r.number}`, r.finished_ms ? null : h('span', { class: 'tag' }, 'playing')),
      h('ul', {}, ...r.tables.map((t) => h('li', { class: 'pairing', 'data-table': t.table },
        h('span', { class: 'muted' }, `Table ${t.table}: `),
        tableText(view, t.seats, t.places),
        t.game_id ? ' · ' : null,
        t.game_id ? h('a', { href: `#/game/${t.game_id}`, class: 'game-link' }, `game #${t.game_id}`) : null))),
      r.byes.length ? h('p', { class: 'muted small' }, `Bye: ${r.byes.map((id) => entrantName(view.entrants, id)).join(', ')}`) : null,
      r.absent.length ? h('p', { class: 'muted small' }, `Absent (lost by forfeit): ${r.absent.map((id) => entrantName(view.entrants, id)).join(', ')}`) : null,
    )));
}
