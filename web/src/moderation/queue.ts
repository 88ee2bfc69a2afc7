// The open (or closed) reports, one card each: who reported whom and why, the chat around the
// reported line with the line marked, the game's link, and the actions, each behind a form
// that asks for a reason.

import { h } from '../dom';
import { actionForm, closeForm } from './action_form';
import type { Report } from './types';
import { ACTIONS, type ActionTarget, dateText, reasonLabel, reportContext } from './words';

const playerLink = (name: string) => h('a', { href: `#/player/${encodeURIComponent(name)}` }, name);

/** The actions a report offers: the player's only when it names one, deleting only a named
 *  line still there, voiding only a named game; lifting a mute or ban belongs to "Act on a
 *  player". */
function offered(target: ActionTarget, lineGone: boolean) {
  return ACTIONS.filter((a) => {
    if (a.kind.startsWith('un')) return false;
    if (a.needs === 'chat') return target.chat !== null && !lineGone;
    if (a.needs === 'game') return target.game !== null;
    return target.user !== null;
  });
}

/** One report's card; `changed` reloads the queue once an action has been taken. */
export function reportCard(r: Report, changed: () => void): HTMLElement {
  const target: ActionTarget = { user: r.user ?? r.chat?.from ?? null, chat: r.chat?.id ?? null, game: r.game, report: r.id };
  const formBox = h('div', { class: 'mod-form-box' });
  const buttons = h('div', { class: 'mod-actions row' });
  const show = (form: HTMLFormElement | null) => {
    formBox.replaceChildren(...(form ? [form] : []));
    buttons.hidden = form !== null;
  };
  const hide = () => show(null);
  if (r.status === 'open') {
    for (const a of offered(target, r.chat?.deleted ?? false)) {
      buttons.append(h('button', { type: 'button', class: a.heavy ? 'danger' : '', 'data-action': a.kind, onclick: () => show(actionForm(a, target, changed, hide)) }, a.label));
    }
    buttons.append(h('button', { type: 'button', 'data-action': 'close', onclick: () => show(closeForm(r.id, changed, hide)) }, 'Close with a note'));
  }
  return h('article', { class: 'card report-card', 'data-report': r.id, 'data-status': r.status },
    h('div', { class: 'row spread' },
      h('h3', {}, `#${r.id} · ${reasonLabel(r.reason)}`),
      h('time', { class: 'muted small', datetime: new Date(r.created_ms).toISOString() }, dateText(r.created_ms))),
    h('p', { class: 'report-who' },
      playerLink(r.reporter), ' reported ', target.user ? playerLink(target.user) : 'a game',
      r.game !== null ? h('span', {}, ' in ', h('a', { href: `#/game/${r.game}`, class: 'report-game' }, `game #${r.game}`)) : null),
    r.text ? h('blockquote', { class: 'report-text' }, r.text) : null,
    contextList(r),
    r.status === 'closed'
      ? h('p', { class: 'muted report-closed' }, `Closed by ${r.closed_by ?? 'a moderator'}${r.note ? `: ${r.note}` : ''}`)
      : null,
    buttons, formBox,
  );
}

/** The chat around the report, the reported line marked. */
function contextList(r: Report): HTMLElement | null {
  const lines = reportContext(r.context, r.chat);
  if (lines.length === 0) return null;
  return h('div', { class: 'report-context' },
    h('div', { class: 'muted small' }, r.chat ? 'The chat around the reported line' : "The game's last chat lines"),
    h('ol', { class: 'context-lines' }, ...lines.map((l) => h('li', { class: `${l.reported ? 'reported' : ''} ${l.deleted ? 'deleted' : ''}`, 'data-chat': l.id },
      h('time', { class: 'muted small' }, new Date(l.at_ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })), ' ',
      l.from ? h('strong', {}, l.from) : h('em', {}, 'table'), ': ', l.text,
      l.deleted ? h('span', { class: 'tag deleted-tag' }, 'deleted') : null,
      l.reported ? h('span', { class: 'sr-only' }, ' (the reported line)') : null))),
  );
}
