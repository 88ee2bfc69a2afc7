// "Report": a small dialog over the page (a chat line, a player's page, a game). The player
// picks a reason and may add words; the server's answer — thanks, or why not (the daily limit)
// — shows in the dialog itself, where the player is looking.

import { ApiError } from '../api';
import { h } from '../dom';
import { moderation } from './api';
import type { ReportBody, ReportReason } from './types';
import { REASONS } from './words';
import './moderation.css';

export interface ReportSubject {
  /** The player reported, when one is. */
  user?: string;
  game?: number;
  /** A chat line's id, and its words to quote. */
  chat?: number;
  quote?: { from: string; text: string };
  /** From a game page: the players the reader may name (the first is chosen). */
  players?: string[];
  /** The reason chosen first (a game page suggests cheating). */
  reason?: ReportReason;
}

function title(s: ReportSubject): string {
  if (s.chat !== undefined) return `Report ${s.quote?.from ?? 'this'}'s chat line`;
  if (s.user !== undefined) return `Report ${s.user}`;
  return `Report game #${s.game}`;
}

/** Opens the dialog; it removes itself when closed. */
export function openReport(subject: ReportSubject): HTMLDialogElement {
  const reason = h('select', { id: 'report-reason', name: 'reason' },
    ...REASONS.map((r) => h('option', { value: r.value, selected: r.value === (subject.reason ?? 'abuse') }, r.label)));
  const who = subject.players?.length
    ? h('select', { id: 'report-user', name: 'user' }, ...subject.players.map((p) => h('option', { value: p }, p)))
    : null;
  const text = h('textarea', { id: 'report-text', name: 'text', maxlength: 1000, rows: 3, placeholder: 'What happened? (optional)' });
  const answer = h('p', { class: 'report-answer', id: 'report-answer', role: 'status' });
  const send = h('button', { type: 'submit', class: 'primary', id: 'report-send' }, 'Send');
  const form = h('form', { method: 'dialog', class: 'report-form' },
    h('h2', {}, title(subject)),
    subject.quote ? h('blockquote', { class: 'report-quote' }, h('strong', {}, subject.quote.from), ': ', subject.quote.text) : null,
    who ? h('label', {}, 'Player', who) : null,
    h('label', {}, 'Reason', reason),
    h('label', {}, 'Anything a moderator should know', text),
    answer,
    h('div', { class: 'row dialog-buttons' },
      h('button', { type: 'button', id: 'report-cancel', onclick: () => dialog.close() }, 'Cancel'),
      send),
  );
  const dialog = h('dialog', { class: 'report-dialog', id: 'report-dialog', 'aria-label': title(subject) }, form);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void submit();
  });
  const submit = async () => {
    const body: ReportBody = { reason: reason.value as ReportReason, text: text.value.trim() };
    const user = who?.value || subject.user;
    if (user) body.user = user;
    if (subject.game !== undefined) body.game = subject.game;
    if (subject.chat !== undefined) body.chat = subject.chat;
    send.disabled = true;
    answer.className = 'report-answer';
    answer.textContent = 'Sending…';
    try {
      await moderation.report(body);
      thank(form, dialog);
    } catch (e) {
      answer.className = 'report-answer error';
      answer.textContent = e instanceof ApiError ? e.message : String(e);
      send.disabled = false;
    }
  };
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  reason.focus();
  return dialog;
}

/** The form gives way to the thanks, with one button to close. */
function thank(form: HTMLFormElement, dialog: HTMLDialogElement) {
  const close = h('button', { type: 'button', class: 'primary', id: 'report-close', onclick: () => dialog.close() }, 'Close');
  form.replaceChildren(
    h('h2', {}, 'Thank you'),
    h('p', { class: 'report-answer done', id: 'report-answer', role: 'status' }, 'Reported — a moderator will look at it.'),
    h('div', { class: 'row dialog-buttons' }, close),
  );
  close.focus();
}

/** A small "Report" button. */
export function reportButton(subject: () => ReportSubject, attrs: Record<string, unknown> = {}): HTMLButtonElement {
  return h('button', { type: 'button', class: 'report-button', title: 'Report to the moderators', ...attrs, onclick: () => openReport(subject()) }, 'Report');
}
