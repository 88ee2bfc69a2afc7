// The reader's account page (#/account): their standing, what moderators did to the account
// and why, their data to download, and deleting the account. Games stay in others' histories
// under an anonymous name, which the warning says before anything is deleted.

import { ApiError } from '../api';
import { clear, h, toast } from '../dom';
import { session } from '../session';
import { EXPORT_URL, moderation } from './api';
import { refreshStanding } from './standing';
import type { AuditEntry, MeWithStanding } from './types';
import { dateText, myHeadline, standingLines } from './words';
import './moderation.css';

export async function accountPage(root: HTMLElement) {
  const [me, entries] = await Promise.all([refreshStanding(), moderation.mine().catch(() => null)]);
  const user = me?.user ?? (await session.user());
  clear(root);
  root.append(h('section', { class: 'account-page', id: 'account-page' },
    h('div', { class: 'card' },
      h('h1', {}, 'Your account'),
      h('p', {}, 'Signed in as ', h('a', { href: `#/player/${encodeURIComponent(user.name)}` }, h('strong', { id: 'account-name' }, user.name)),
        user.kind === 'guest' ? ' (guest)' : '', '.'),
      standingBlock(me),
    ),
    historyCard(entries),
    dataCard(),
    deleteCard(user.kind !== 'guest'),
  ));
}

/** Good standing in one line, or each thing against the account in a banner of its own. */
function standingBlock(me: MeWithStanding | null): HTMLElement {
  const lines = standingLines(me?.standing ?? undefined, Date.now());
  if (lines.length === 0) return h('p', { class: 'standing good', id: 'account-standing' }, 'Your account is in good standing.');
  const reason = me?.standing?.reason;
  return h('div', { id: 'account-standing', class: `standing-box is-${lines[0].kind}` },
    ...lines.map((l) => h('p', { 'data-kind': l.kind }, l.text)),
    reason ? h('p', { class: 'standing-reason' }, `Reason: ${reason}`) : null);
}

function historyCard(entries: AuditEntry[] | null): HTMLElement {
  const card = h('div', { class: 'card', id: 'my-moderation' }, h('h2', {}, 'What moderators did to your account'));
  if (entries === null) card.append(h('p', { class: 'error' }, 'This could not be loaded; try again later.'));
  else if (entries.length === 0) card.append(h('p', { class: 'muted' }, 'Nothing: no moderator has acted on your account.'));
  else card.append(h('ul', { class: 'mod-entries' }, ...entries.map(entryItem)));
  return card;
}

function entryItem(e: AuditEntry): HTMLElement {
  return h('li', { 'data-action': e.action },
    h('div', { class: 'row spread' },
      h('strong', {}, myHeadline(e)),
      h('time', { class: 'muted small', datetime: new Date(e.at_ms).toISOString() }, dateText(e.at_ms))),
    h('div', {}, 'Reason: ', h('span', { class: 'mod-reason' }, e.reason)),
    e.detail ? h('div', { class: 'muted small' }, e.detail) : null,
  );
}

function dataCard(): HTMLElement {
  return h('div', { class: 'card' },
    h('h2', {}, 'Your data'),
    h('p', {}, 'What this server keeps about your account, in one JSON file.'),
    h('a', { class: 'button-link', href: EXPORT_URL, download: '', id: 'export-data' }, 'Download my data'),
  );
}

/** Deleting asks for the password (registered accounts) and a last confirmation. */
function deleteCard(registered: boolean): HTMLElement {
  const password = h('input', { type: 'password', id: 'delete-password', autocomplete: 'current-password', placeholder: 'your password', 'aria-label': 'Your password' });
  const error = h('p', { class: 'error', id: 'delete-error', role: 'alert' });
  const button = h('button', { type: 'submit', class: 'danger', id: 'delete-account' }, 'Delete my account');
  const form = h('form', { class: 'delete-form' },
    registered ? h('label', {}, 'Type your password to confirm', password) : null,
    error,
    button,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    if (registered && !password.value) {
      error.textContent = 'Type your password first.';
      return;
    }
    if (!confirm('Delete your account for good? This cannot be undone.')) return;
    button.disabled = true;
    try {
      await moderation.deleteAccount(registered ? password.value : undefined);
      session.set(null);
      toast('Your account is deleted.');
      location.hash = '#/';
      location.reload();
    } catch (err) {
      error.textContent = err instanceof ApiError ? err.message : String(err);
      button.disabled = false;
    }
  });
  return h('div', { class: 'card danger-zone', id: 'delete-card' },
    h('h2', {}, 'Delete my account'),
    h('p', {}, 'Your account goes and you are signed out. ',
      h('strong', {}, 'Your games stay'), ' — your opponents keep their records — under an anonymous name such as “deleted-12”. This cannot be undone; download your data first if you want it.'),
    form,
  );
}
