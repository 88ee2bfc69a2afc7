// The moderators' page (#/moderation): the reports queue (open, or closed ones to look back
// on), the audit log filtered by player, acting on a player without a report (lifting a mute,
// say), and for admins granting roles. The server checks every call; the page only leaves out
// what the reader may not use.

import { ApiError } from '../api';
import { clear, h, toast } from '../dom';
import { actionForm } from './action_form';
import { moderation } from './api';
import { reportCard } from './queue';
import { mayModerate, refreshStanding } from './standing';
import type { AuditEntry, Role } from './types';
import { ACTIONS, dateText, logHeadline } from './words';
import './moderation.css';

export async function moderationPage(root: HTMLElement) {
  const me = await refreshStanding();
  clear(root);
  if (!mayModerate(me?.standing?.role)) {
    root.append(h('div', { class: 'card', id: 'not-moderator' }, h('h1', {}, 'Moderation'), h('p', {}, 'This page is for moderators.')));
    return;
  }
  const log = logCard();
  const queue = queueCard(() => void log.reload());
  root.append(h('section', { class: 'mod-page', id: 'moderation-page' },
    h('div', { class: 'mod-main' }, queue.element),
    h('div', { class: 'mod-side' }, actOnPlayerCard(() => void log.reload()), log.element, me?.standing?.role === 'admin' ? grantCard(() => void log.reload()) : null),
  ));
  await Promise.all([queue.reload(), log.reload()]);
}

/** The reports, open first; `acted` tells the log something happened. */
function queueCard(acted: () => void) {
  let status: 'open' | 'closed' = 'open';
  const list = h('div', { id: 'report-list' });
  const tab = (s: typeof status, label: string) => h('button', {
    type: 'button', class: 'tab', id: `reports-${s}`, 'aria-pressed': String(s === status),
    onclick: () => { status = s; void reload(); },
  }, label);
  const tabs = h('div', { class: 'row mod-tabs' });
  const element = h('div', {}, h('div', { class: 'row spread' }, h('h1', {}, 'Reports'), tabs), list);
  const reload = async () => {
    tabs.replaceChildren(tab('open', 'Open'), tab('closed', 'Closed'));
    try {
      const reports = await moderation.reports(status);
      clear(list);
      if (reports.length === 0) list.append(h('p', { class: 'card muted', id: 'no-reports' }, status === 'open' ? 'No open reports. All quiet.' : 'No closed reports yet.'));
      list.append(...reports.map((r) => reportCard(r, () => { void reload(); acted(); })));
    } catch (e) {
      list.replaceChildren(h('p', { class: 'card error' }, (e as Error).message));
    }
  };
  return { element, reload };
}

/** The audit log, newest first, for everyone or one player. */
function logCard() {
  const filter = h('input', { id: 'log-user', placeholder: 'player', 'aria-label': 'Only this player', autocomplete: 'off' });
  const list = h('ul', { class: 'audit-log', id: 'audit-log' });
  const reload = async () => {
    try {
      const entries = await moderation.log(filter.value.trim() || undefined);
      list.replaceChildren(...(entries.length ? entries.map(auditItem) : [h('li', { class: 'muted' }, 'Nothing yet.')]));
    } catch (e) {
      list.replaceChildren(h('li', { class: 'error' }, (e as Error).message));
    }
  };
  const form = h('form', { class: 'row', id: 'log-filter' }, filter, h('button', { type: 'submit' }, 'Filter'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void reload();
  });
  return { element: h('div', { class: 'card' }, h('h2', {}, 'Audit log'), form, list), reload };
}

function auditItem(e: AuditEntry): HTMLElement {
  return h('li', { 'data-action': e.action, 'data-user': e.user ?? undefined },
    h('div', {}, h('strong', {}, logHeadline(e))),
    h('div', { class: 'small' }, e.reason, e.detail ? h('span', { class: 'muted' }, ` · ${e.detail}`) : null),
    h('time', { class: 'muted small', datetime: new Date(e.at_ms).toISOString() }, dateText(e.at_ms)),
  );
}

/** Any action on a named player, without a report (lifting a mute, a rename asked for). */
function actOnPlayerCard(acted: () => void): HTMLElement {
  const user = h('input', { id: 'act-user', placeholder: 'player', 'aria-label': 'Player', autocomplete: 'off' });
  const kinds = ACTIONS.filter((a) => a.needs !== 'chat' && a.needs !== 'game');
  const kind = h('select', { id: 'act-kind', 'aria-label': 'Action' }, ...kinds.map((a) => h('option', { value: a.kind }, a.label)));
  const box = h('div', {});
  const open = () => {
    const info = kinds.find((a) => a.kind === kind.value);
    if (!info || !user.value.trim()) return toast('Name the player first.', 'error');
    const close = () => box.replaceChildren();
    box.replaceChildren(actionForm(info, { user: user.value.trim(), chat: null, game: null, report: null }, () => { close(); acted(); }, close));
  };
  return h('div', { class: 'card' }, h('h2', {}, 'Act on a player'),
    h('div', { class: 'row' }, user, kind, h('button', { type: 'button', id: 'act-open', onclick: open }, 'Go on')), box);
}

/** Admins: give a player a role (an audit line "grant"). */
function grantCard(acted: () => void): HTMLElement {
  const user = h('input', { id: 'grant-user', placeholder: 'player', 'aria-label': 'Player', autocomplete: 'off', required: true });
  const role = h('select', { id: 'grant-role', 'aria-label': 'Role' },
    ...(['player', 'moderator', 'admin'] as Role[]).map((r) => h('option', { value: r, selected: r === 'moderator' }, r)));
  const form = h('form', { class: 'row', id: 'grant-form' }, user, role, h('button', { type: 'submit', class: 'primary' }, 'Grant'));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await moderation.grant(user.value.trim(), role.value as Role);
      toast(`${user.value.trim()} is now ${role.value === 'admin' ? 'an admin' : `a ${role.value}`}`);
      acted();
    } catch (err) {
      toast(err instanceof ApiError ? err.message : String(err), 'error');
    }
  });
  return h('div', { class: 'card', id: 'grant-card' }, h('h2', {}, 'Grant a role'), form);
}
