// The lobby's lists that filter and page, "your move" in My games, and player search
// (issue 42). The lobby (lobby.ts) lays them out; the server checks every filter value.

import { api, type RuleSystem } from '../api';
import { h } from '../dom';
import type { GameSummary, Tell, WaitingGame } from '../protocol';
import { timeLeft } from '../tell';

/** The public lists, each paged on its own. */
export type ListName = 'open' | 'live' | 'finished';

/** What the lists are filtered on (empty: any), kept while the lobby refreshes. */
export interface Filters {
  rules: string;
  map: string;
  size: string;
  players: string;
  rated: string;
  clock: string;
}

const FILTERS_KEY = 'gb-list-filters';
/** Games per page of a public list. */
export const PAGE = 10;

const MAP_FAMILIES = ['square', 'rect', 'hex', 'honeycomb', 'tri', 'torus', 'cylinder', 'klein', 'cube', 'goldberg', 'grid', 'wavy', 'random', 'custom'];
const CLOCKS: [string, string][] = [['none', 'No clock'], ['turn', 'Per turn'], ['absolute', 'Absolute'], ['fischer', 'Fischer'], ['byo_yomi', 'Byo-yomi'], ['canadian', 'Canadian'], ['simple', 'Per move'], ['correspondence', 'Correspondence']];

export const filters: Filters = loadFilters();
/** Per list, the cursors of the pages before the one shown (`before` of each), newest first. */
const pages: Record<ListName, (number | null)[]> = { open: [null], live: [null], finished: [null] };

function loadFilters(): Filters {
  const none: Filters = { rules: '', map: '', size: '', players: '', rated: '', clock: '' };
  try {
    return { ...none, ...(JSON.parse(sessionStorage.getItem(FILTERS_KEY) ?? '{}') as Partial<Filters>) };
  } catch {
    return none;
  }
}

/** The query string of one page of a list. */
export function listQuery(list: ListName, f: Filters = filters, before: number | null = currentCursor(list)): string {
  const q = new URLSearchParams({ status: list, limit: String(PAGE) });
  for (const [k, v] of Object.entries(f)) if (v) q.set(k, v);
  if (before !== null) q.set('before', String(before));
  return q.toString();
}

function currentCursor(list: ListName): number | null {
  return pages[list][pages[list].length - 1] ?? null;
}

export function filtersActive(f: Filters = filters): number {
  return Object.values(f).filter(Boolean).length;
}

/** The filter controls: folded on a phone, open on a wide screen; any change goes back to each
 *  list's first page. */
export function filterBar(systems: RuleSystem[], changed: () => void): HTMLElement {
  const select = (name: keyof Filters, label: string, options: [string, string][]) => {
    const s = h('select', { name: `filter-${name}`, id: `filter-${name}`, 'aria-label': label }, h('option', { value: '' }, `Any ${label.toLowerCase()}`), ...options.map(([v, t]) => h('option', { value: v }, t)));
    s.value = filters[name];
    s.addEventListener('change', () => set(name, s.value));
    return s;
  };
  const size = h('input', { id: 'filter-size', name: 'filter-size', placeholder: 'Size (19, 13x9)', 'aria-label': 'Map size', value: filters.size, size: 8, inputmode: 'text' });
  let typing: ReturnType<typeof setTimeout> | undefined;
  size.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => set('size', size.value.trim().toLowerCase()), 400);
  });
  const count = h('span', { class: 'tag', id: 'filter-count', hidden: filtersActive() === 0 }, String(filtersActive()));
  const set = (name: keyof Filters, value: string) => {
    filters[name] = value;
    sessionStorage.setItem(FILTERS_KEY, JSON.stringify(filters));
    for (const list of Object.keys(pages) as ListName[]) pages[list] = [null];
    count.textContent = String(filtersActive());
    count.hidden = filtersActive() === 0;
    changed();
  };
  const bar = h('details', { class: 'card filters', id: 'filters' },
    h('summary', {}, 'Filter the lists ', count),
    h('div', { class: 'filter-row' },
      select('rules', 'Rules', systems.map((s) => [s.name, s.title])),
      select('map', 'Map', MAP_FAMILIES.map((m) => [m, m])),
      size,
      select('players', 'Players', [2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), `${n} players`])),
      select('rated', 'Rating', [['true', 'Rated'], ['false', 'Unrated']]),
      select('clock', 'Clock', CLOCKS),
      h('button', { type: 'button', id: 'filter-clear', onclick: () => {
        for (const k of Object.keys(filters) as (keyof Filters)[]) filters[k] = '';
        bar.querySelectorAll('select').forEach((s) => (s.value = ''));
        size.value = '';
        set('rules', '');
      } }, 'Clear'),
    ),
  );
  // Open where there is room; a phone keeps the lists first.
  bar.open = window.matchMedia('(min-width: 700px)').matches || filtersActive() > 0;
  return bar;
}

/** "Newer" and "Older" under a list: page by page, each page fixed by its cursor. */
export function pager(list: ListName, next: number | null, changed: () => void): HTMLElement | null {
  const stack = pages[list];
  if (stack.length === 1 && next === null) return null;
  return h('div', { class: 'row pager' },
    h('button', { type: 'button', class: 'newer', disabled: stack.length === 1, onclick: () => { stack.pop(); changed(); } }, '‹ Newer'),
    h('span', { class: 'muted' }, `page ${stack.length}`),
    h('button', { type: 'button', class: 'older', disabled: next === null, onclick: () => { if (next !== null) stack.push(next); changed(); } }, 'Older ›'),
  );
}

/** My games, those waiting for me first, the least time left first (untimed after timed), as
 *  the server orders them; the others as they came. */
export function sortMine(games: GameSummary[], tell: Tell | null): GameSummary[] {
  const rank = new Map((tell?.waiting ?? []).map((w, i) => [w.game, i]));
  return [...games].sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity));
}

/** The "your move" mark of a game waiting for me, with the time left. */
export function waitMark(w: WaitingGame, tell: Tell): HTMLElement {
  const what = w.kind === 'undo' ? 'undo asked' : w.kind === 'decision' ? 'your decision' : 'your move';
  // Counted from the server's clock at the answer, then by this one.
  const left = w.deadline_ms !== null ? Math.max(0, w.deadline_ms - tell.now_ms) : null;
  return h('span', { class: 'tag your-move', 'data-kind': w.kind, title: left !== null ? `${timeLeft(left)} left` : 'No clock' },
    what, left !== null ? ` · ${timeLeft(left)}` : null);
}

/** A search box for players by the start of their name, linking to their pages. */
export function playerSearch(): HTMLElement {
  const input = h('input', { type: 'search', id: 'player-search', placeholder: 'Find a player', 'aria-label': 'Find a player by name', maxlength: 24, autocomplete: 'off', spellcheck: 'false' });
  const found = h('ul', { class: 'found', id: 'players-found' });
  let asked = 0;
  let typing: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(async () => {
      const mine = ++asked;
      const prefix = input.value.trim();
      if (!prefix) {
        found.replaceChildren();
        return;
      }
      try {
        const players = await api.findPlayers(prefix);
        if (mine !== asked) return;
        found.replaceChildren(...(players.length
          ? players.map((p) => h('li', {}, h('a', { href: `#/player/${encodeURIComponent(p.name)}` }, p.name), p.kind === 'bot' ? h('span', { class: 'tag' }, 'bot') : null))
          : [h('li', { class: 'muted' }, 'Nobody by that name.')]));
      } catch (e) {
        if (mine === asked) found.replaceChildren(h('li', { class: 'error' }, (e as Error).message));
      }
    }, 250);
  });
  return h('div', { class: 'card player-search' }, h('h2', {}, 'Players'), input, found);
}
