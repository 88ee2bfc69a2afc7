// #/tournaments/ID: the summary, the rules in words, what the viewer may do (or why not), the
// entrants, standings, crosstable and rounds. Re-read every 5 s while the tournament is open or
// running, so entries, pairings and results appear without a reload.

import { clear, h, toast } from '../../dom';
import { session } from '../../session';
import { systemUi } from '../../systems';
import type { User } from '../../types';
import { tournaments } from './calls';
import { arenaClock, arenaView } from './arena';
import { crossTableView, roundsView, standingsTable } from './tables';
import type { TournamentView } from './types';
import { anyResult, formatLabel, ratingLine, startText, stateLabel } from './words';

const REFRESH_MS = 5000;

export async function tournamentPage(root: HTMLElement, id: number): Promise<() => void> {
  const user = await session.user();
  let view = await tournaments.view(id);
  let timer: number | undefined;
  let busy = false;
  const draw = () => {
    // Fields being typed into (a bot's level, a bye's round) keep their values across a redraw.
    const level = root.querySelector<HTMLSelectElement>('#bot-level')?.value;
    clear(root);
    root.append(...page(view, user, act));
    if (level) root.querySelector<HTMLSelectElement>('#bot-level')!.value = level;
  };
  const reload = async () => {
    if (busy) return;
    busy = true;
    try {
      const fresh = await tournaments.view(id);
      if (!root.isConnected) return;
      const changed = JSON.stringify(fresh) !== JSON.stringify(view);
      view = fresh;
      if (changed) draw();
    } catch {
      // The next tick tries again.
    } finally {
      busy = false;
    }
  };
  const act = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      toast(done);
    } catch (e) {
      toast((e as Error).message, 'error');
    }
    await reload();
  };
  draw();
  timer = window.setInterval(() => {
    if (view.summary.state === 'open' || view.summary.state === 'running') void reload();
  }, REFRESH_MS);
  return () => window.clearInterval(timer);
}

type Act = (what: () => Promise<unknown>, done: string) => Promise<void>;

function page(view: TournamentView, user: User, act: Act): HTMLElement[] {
  const s = view.summary;
  const when = s.state === 'open' ? `Starts ${startText(s.start_ms)}.` : s.format === 'arena' && s.state === 'running' ? 'The arena is on.' : s.state === 'running' ? `Round ${view.rounds.length} of ${s.rounds || '?'} is on.` : `${stateLabel(s.state)}.`;
  return [
    h('section', { class: 'card', id: 'tournament-summary', 'data-state': s.state },
      h('p', { class: 'muted small' }, h('a', { href: '#/tournaments' }, '‹ Tournaments')),
      h('h1', {}, s.name, h('span', { class: 'tag', id: 'tournament-state' }, stateLabel(s.state))),
      h('p', {}, `${formatLabel(s.format)} · ${systemUi(s.system).title} on ${s.map} · ${s.players_per_game} players a game · ${s.time_control_text}`),
      h('p', { class: 'muted' }, `${s.entrants} of ${s.max_entrants} entered · ${when} · organised by ${s.creator}`),
      ratingLine(view) ? h('p', { class: 'muted small' }, ratingLine(view)) : null,
      actions(view, user, act),
      exportLinks(s.id, view.rounds.length > 0),
    ),
    h('section', { class: 'card', id: 'tournament-rules' },
      h('h2', {}, 'How it is played'),
      h('ul', {}, ...view.rules_text.map((t) => h('li', {}, t)))),
    h('section', { class: 'card' }, h('h2', {}, 'Standings'), standingsTable(view)),
    view.crosstable?.length && anyResult(view) ? h('section', { class: 'card' }, h('h2', {}, 'Crosstable'), crossTableView(view)) : null,
    s.format === 'arena'
      ? h('section', { class: 'card' }, h('h2', {}, arenaClock(view)), arenaView(view))
      : h('section', { class: 'card' }, h('h2', {}, 'Rounds'), roundsView(view)),
    h('section', { class: 'card' }, h('h2', {}, `Entrants (${view.entrants.length})`), entrantsList(view)),
  ].filter((x): x is HTMLElement => x !== null);
}

function actions(view: TournamentView, user: User, act: Act): HTMLElement {
  const id = view.summary.id;
  const creator = view.summary.creator === user.name;
  const open = view.summary.state === 'open';
  const entered = view.entrants.some((e) => e.user_id === user.id && e.withdrawn_after === null);
  const box = h('div', { class: 'row', id: 'tournament-actions' });
  // An invitation's link carries its token (`#/tournaments/ID?invite=…`).
  const invite = new URLSearchParams(location.hash.split('?')[1] ?? '').get('invite') ?? undefined;
  if (view.may_join || (invite && open && !entered)) {
    box.append(h('button', { class: 'primary', id: 't-join', onclick: () => act(() => tournaments.join(id, invite), 'You are in.') }, 'Join'));
  }
  if (view.may_leave) {
    const label = open ? 'Leave' : 'Withdraw';
    box.append(h('button', {
      id: 't-leave', class: open ? '' : 'danger',
      onclick: () => {
        if (!open && !confirm('Withdraw from this tournament? You are not paired in later rounds; your games so far count.')) return;
        void act(() => tournaments.leave(id), open ? 'You left.' : 'You withdrew.');
      },
    }, label));
  }
  if (view.may_add_bot ?? (creator && open)) {
    const level = h('select', { id: 'bot-level', 'aria-label': 'Bot level' },
      ...Array.from({ length: 10 }, (_, k) => h('option', { value: String(k + 1) }, `level ${k + 1}`))) as HTMLSelectElement;
    box.append(h('span', { class: 'row' }, level,
      h('button', { id: 't-add-bot', onclick: () => act(() => tournaments.addBot(id, Number(level.value)), 'Bot added.') }, 'Add bot')));
  }
  const notYet = creator && open && !view.may_start ? startWhyNot(view) : null;
  if (view.may_start || (creator && open)) {
    // Shown to the organiser before the start even when it may not start yet, with the reason.
    box.append(h('button', { id: 't-start', class: view.may_start ? 'primary' : '', disabled: !view.may_start, onclick: () => act(() => tournaments.start(id), 'Started.') }, 'Start now'));
  }
  if (view.may_request_bye ?? (entered && view.summary.format !== 'arena' && (open || view.summary.state === 'running'))) {
    const next = view.rounds.length + 1;
    const round = h('input', { type: 'number', id: 'bye-round', min: next, max: Math.max(next, view.summary.rounds || next), value: next, 'aria-label': 'Round' }) as HTMLInputElement;
    box.append(h('span', { class: 'row' }, h('label', {}, 'Bye in round ', round),
      h('button', { id: 't-bye', onclick: () => act(() => tournaments.bye(id, Number(round.value)), `Bye asked for round ${round.value}.`) }, 'Request a bye')));
  }
  const why = view.why_not ? h('p', { class: 'muted', id: 't-why-not' }, view.why_not) : null;
  const token = creator ? (view.settings as { invite?: string } | undefined)?.invite : undefined;
  const link = token ? inviteLink(id, token) : null;
  return h('div', {}, box.childElementCount ? box : null, notYet ? h('p', { class: 'muted', id: 't-start-why' }, notYet) : null, why, link);
}

/** Why the organiser may not start yet, from the view's numbers. */
function startWhyNot(view: TournamentView): string {
  const least = Number((view.settings as { min_entrants?: number } | undefined)?.min_entrants ?? 2);
  const n = view.entrants.filter((e) => e.withdrawn_after === null).length;
  return n < least ? `${n} entered: it needs at least ${least} to start.` : 'It may not start yet.';
}

/** The link an invitation tournament is joined with, for its organiser to send. */
function inviteLink(id: number, token: string): HTMLElement {
  const url = `${location.origin}${location.pathname}#/tournaments/${id}?invite=${encodeURIComponent(token)}`;
  return h('label', { class: 'invite' }, 'Send this link to those you invite: ',
    h('input', { id: 't-invite-link', readonly: true, value: url, onfocus: (e: Event) => (e.target as HTMLInputElement).select() }));
}

function exportLinks(id: number, any: boolean): HTMLElement | null {
  if (!any) return null;
  return h('p', { class: 'small', id: 't-export' }, 'Export: ',
    h('a', { href: tournaments.exportUrl(id, 'json'), download: '' }, 'JSON'), ' · ',
    h('a', { href: tournaments.exportUrl(id, 'csv'), download: '' }, 'CSV (a spreadsheet)'));
}

function entrantsList(view: TournamentView): HTMLElement {
  if (view.entrants.length === 0) return h('p', { class: 'muted', id: 'entrants' }, 'Nobody yet.');
  return h('ul', { id: 'entrants', class: 'entrants' }, ...view.entrants.map((e) =>
    h('li', { 'data-entrant': e.id },
      e.bot_level !== null ? h('span', {}, e.name || `bot (level ${e.bot_level})`, h('span', { class: 'tag' }, 'bot')) : h('a', { href: `#/player/${encodeURIComponent(e.name)}` }, e.name),
      ' ', h('span', { class: 'muted' }, String(Math.round(e.rating))),
      e.withdrawn_after !== null ? h('span', { class: 'tag' }, `withdrew after round ${e.withdrawn_after}`) : null)));
}
