// The form behind each moderation button: a reason always (the player reads it), days for a
// mute or suspension, a new name for a rename; and, from a report, whether the action closes
// it. The server's refusal shows in the form.

import { ApiError } from '../api';
import { h, toast } from '../dom';
import { moderation } from './api';
import { type ActionInfo, type ActionTarget, actionBody, didText, parseDays } from './words';

/** A form for one action on `target`; `done` runs after the server has taken it. */
export function actionForm(info: ActionInfo, target: ActionTarget, done: () => void, cancel: () => void): HTMLFormElement {
  const who = target.user ?? 'the player';
  const reason = h('textarea', { name: 'reason', class: 'mod-reason-input', rows: 2, maxlength: 1000, required: true, placeholder: `Why? ${who} reads this.` });
  const days = info.needs === 'days' ? h('input', { name: 'days', type: 'number', min: 1, max: 3650, value: 1, class: 'mod-days' }) : null;
  const name = info.needs === 'name' ? h('input', { name: 'name', maxlength: 40, placeholder: 'new name', autocomplete: 'off' }) : null;
  const closes = target.report !== null ? h('input', { type: 'checkbox', name: 'close', checked: true }) : null;
  const error = h('p', { class: 'error mod-form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: info.heavy ? 'danger' : 'primary', 'data-confirm': info.kind }, `${info.label}${target.user && info.needs !== 'chat' && info.needs !== 'game' ? ` ${target.user}` : ''}`);
  const form = h('form', { class: 'mod-action-form', 'data-action': info.kind },
    h('label', {}, 'Reason', reason),
    days ? h('label', { class: 'inline' }, 'For ', days, ' days') : null,
    name ? h('label', {}, 'New name', name) : null,
    closes ? h('label', { class: 'check' }, closes, ' and close this report') : null,
    error,
    h('div', { class: 'row' }, submit, h('button', { type: 'button', onclick: cancel }, 'Cancel')),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const days_ = days ? parseDays(days.value) : undefined;
    const body = actionBody(info.kind, { ...target, report: closes?.checked ? target.report : null },
      { reason: reason.value, days: days_ ?? undefined, name: name?.value });
    if (typeof body === 'string') {
      error.textContent = body;
      return;
    }
    submit.disabled = true;
    try {
      await moderation.act(body);
      const did = didText(info.kind, target.user);
      toast(`Done: ${did.charAt(0).toUpperCase()}${did.slice(1)}`);
      done();
    } catch (err) {
      error.textContent = err instanceof ApiError ? err.message : String(err);
      submit.disabled = false;
    }
  });
  queueMicrotask(() => reason.focus());
  return form;
}

/** "Close with a note": the report goes to the closed list with the note. */
export function closeForm(report: number, done: () => void, cancel: () => void): HTMLFormElement {
  const note = h('textarea', { name: 'note', rows: 2, maxlength: 1000, placeholder: 'What you found, what was done' });
  const error = h('p', { class: 'error mod-form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-confirm': 'close' }, 'Close the report');
  const form = h('form', { class: 'mod-action-form', 'data-action': 'close' },
    h('label', {}, 'Note', note), error,
    h('div', { class: 'row' }, submit, h('button', { type: 'button', onclick: cancel }, 'Cancel')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!note.value.trim()) {
      error.textContent = 'Write a note: the next moderator reads it.';
      return;
    }
    submit.disabled = true;
    try {
      await moderation.close(report, note.value.trim());
      toast(`Report #${report} closed`);
      done();
    } catch (err) {
      error.textContent = err instanceof ApiError ? err.message : String(err);
      submit.disabled = false;
    }
  });
  queueMicrotask(() => note.focus());
  return form;
}
