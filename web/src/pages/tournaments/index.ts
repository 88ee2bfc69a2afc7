// #/tournaments (Upcoming / Running / Finished and the Create form) and #/tournaments/ID.

import { api } from '../../api';
import { clear, h } from '../../dom';
import { session } from '../../session';
import { systemUi } from '../../systems';
import { tournaments } from './calls';
import { createTournamentForm } from './create';
import { tournamentPage } from './detail';
import type { TournamentSummary } from './types';
import { formatLabel, startText, stateLabel } from './words';
import './tournaments.css';

type Tab = 'open' | 'running' | 'finished';
const TABS: Tab[] = ['open', 'running', 'finished'];

/** The page for `#/tournaments[/ID]`; returns what stops its timers. */
export async function tournamentsPage(root: HTMLElement, id?: number): Promise<(() => void) | null> {
  if (id !== undefined) return tournamentPage(root, id);
  const [user, systems] = await Promise.all([session.user(), api.rules()]);
  const wanted = new URLSearchParams(location.hash.split('?')[1] ?? '').get('tab');
  let tab: Tab = TABS.includes(wanted as Tab) ? (wanted as Tab) : 'open';
  const list = h('div', { id: 'tournament-list', 'aria-live': 'polite' });
  const buttons = TABS.map((t) =>
    h('button', { type: 'button', role: 'tab', id: `tab-${t}`, 'aria-selected': String(t === tab), onclick: () => { tab = t; void show(); } }, stateLabel(t)));
  const show = async () => {
    buttons.forEach((b, i) => b.setAttribute('aria-selected', String(TABS[i] === tab)));
    const items = await tournaments.list(tab);
    if (!list.isConnected) return;
    list.replaceChildren(items.length === 0
      ? h('p', { class: 'muted' }, tab === 'open' ? 'No tournament is taking entries. Create one below.' : 'None right now.')
      : h('ul', { class: 'tournament-rows' }, ...items.map(row)));
  };
  clear(root);
  root.append(
    h('section', { class: 'card' },
      h('h1', {}, 'Tournaments'),
      h('div', { class: 'tabs', role: 'tablist' }, ...buttons),
      list),
    createTournamentForm(systems, user),
  );
  await show();
  return null;
}

function row(t: TournamentSummary): HTMLElement {
  const when = t.state === 'open' ? `starts ${startText(t.start_ms)}` : t.state === 'running' ? 'running' : 'finished';
  return h('li', { class: 'tournament-row', 'data-tournament': t.id },
    h('a', { href: `#/tournaments/${t.id}`, class: 'tournament-name' }, t.name),
    h('span', { class: 'muted' }, `${formatLabel(t.format)} · ${systemUi(t.system).title} on ${t.map} · ${t.players_per_game} players a game · ${t.time_control_text}`),
    h('span', { class: 'muted' }, `${t.entrants} of ${t.max_entrants} entered · ${when} · by ${t.creator}`),
  );
}
