// Mail (docs/api.md, "Mail"): the account's address and notices in the lobby, and the pages the
// mailed links open — confirm an address, unsubscribe, choose a new password — and "forgot
// password". Tokens come in the link's #fragment, which no server sees; they are sent in bodies.

import { call } from '../api';
import { clear, h, toast } from '../dom';
import type { Confirmed, MailPrefs, MailSettings, OkBody, PasswordReset, Unsubscribed } from '../protocol';
import { session } from '../session';

const mailApi = {
  settings: () => call<MailSettings>('GET', '/api/mail'),
  setAddress: (address: string) => call<MailSettings>('PUT', '/api/mail/address', { address }),
  removeAddress: () => call<MailSettings>('DELETE', '/api/mail/address'),
  setPrefs: (prefs: MailPrefs) => call<MailSettings>('PUT', '/api/mail/prefs', prefs),
  confirm: (token: string) => call<Confirmed>('POST', '/api/mail/confirm', { token }),
  unsubscribe: (token: string, all = false) => call<Unsubscribed>('POST', '/api/mail/unsubscribe', { token, all }),
  forgot: (who: string) => call<OkBody>('POST', '/api/password/forgot', { who }),
  reset: (token: string, password: string) => call<PasswordReset>('POST', '/api/password/reset', { token, password }),
};

/** What each notice is, for players. */
const NOTICES: Record<string, string> = {
  your_turn: 'your turn',
  time_low: 'time running out',
  challenge: 'challenges',
  game_over: 'games ending',
  digest: 'the daily list of games waiting',
  tournament: 'tournament rounds starting',
  all: 'anything',
};

/** The lobby's email section of a registered account. */
export function mailPanel(): HTMLElement {
  const box = h('details', { class: 'account', id: 'mail-settings' }, h('summary', {}, 'Email'));
  const body = h('div', {});
  box.append(body);
  let loaded = false;
  box.addEventListener('toggle', () => {
    if (box.open && !loaded) {
      loaded = true;
      void mailApi.settings().then((s) => drawSettings(body, s), (e) => body.append(h('p', { class: 'error' }, String((e as Error).message))));
    }
  });
  return box;
}

function drawSettings(body: HTMLElement, s: MailSettings) {
  clear(body);
  if (!s.enabled) {
    body.append(h('p', { class: 'muted', id: 'mail-off' }, 'Mail is off on this server: its host has not set it up.'));
    return;
  }
  const address = h('input', { id: 'mail-address', type: 'email', autocomplete: 'email', maxlength: 254, placeholder: 'you@example.org', value: s.address ?? '', 'aria-label': 'Email address' });
  const save = async () => {
    try {
      drawSettings(body, await mailApi.setAddress(address.value));
      toast('We sent a confirmation link to that address');
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  };
  const state = s.address === null
    ? 'Add an address to get mail about your games when you are away.'
    : s.confirmed ? `Confirmed: ${s.address}` : `Waiting for confirmation: open the link we sent to ${s.address}.`;
  body.append(
    h('p', { id: 'mail-state', class: s.confirmed ? '' : 'muted' }, state),
    h('form', { class: 'row', novalidate: true, onsubmit: (e: Event) => { e.preventDefault(); void save(); } },
      address,
      h('button', { type: 'submit', id: 'mail-save' }, s.address === null ? 'Add' : 'Change'),
      s.address !== null && h('button', { type: 'button', id: 'mail-remove', onclick: async () => drawSettings(body, await mailApi.removeAddress()) }, 'Remove'),
    ),
  );
  if (s.prefs) body.append(prefsForm(body, s.prefs));
}

function prefsForm(body: HTMLElement, p: MailPrefs): HTMLElement {
  const check = (id: string, on: boolean) => h('input', { type: 'checkbox', id, checked: on });
  const hours = (id: string, n: number, label: string) => h('input', { type: 'number', id, min: 1, max: 168, value: n, 'aria-label': label, class: 'hours' });
  const yourTurn = check('mail-your-turn', p.your_turn);
  const idle = hours('mail-idle-hours', p.idle_hours, 'Hours a game waits before the mail');
  const timeLow = check('mail-time-low', p.time_low);
  const lowHours = hours('mail-time-low-hours', p.time_low_hours, 'Hours left on the clock');
  const challenge = check('mail-challenge', p.challenge);
  const gameOver = check('mail-game-over', p.game_over);
  const digest = check('mail-digest', p.digest);
  const tournament = check('mail-tournament', p.tournament);
  const save = async () => {
    try {
      drawSettings(body, await mailApi.setPrefs({
        your_turn: yourTurn.checked, idle_hours: Number(idle.value), time_low: timeLow.checked, time_low_hours: Number(lowHours.value),
        challenge: challenge.checked, game_over: gameOver.checked, digest: digest.checked, tournament: tournament.checked,
      }));
      toast('Mail settings saved');
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  };
  return h('fieldset', { class: 'mail-prefs' },
    h('legend', {}, 'Mail me when'),
    h('label', { class: 'check' }, yourTurn, ' a game has waited for my move for ', idle, ' hours'),
    h('label', { class: 'check' }, timeLow, ' my clock has less than ', lowHours, ' hours left'),
    h('label', { class: 'check' }, challenge, ' someone challenges me'),
    h('label', { class: 'check' }, gameOver, ' a game of mine ends'),
    h('label', { class: 'check' }, digest, ' once a day: the games waiting for me'),
    h('label', { class: 'check' }, tournament, ' a round of a tournament I play in starts'),
    h('button', { type: 'button', id: 'mail-prefs-save', onclick: () => void save() }, 'Save'),
  );
}

/** `#/mail/<what>/<token>` and `#/mail/forgot`. */
export async function mailPage(root: HTMLElement, what: string | undefined, token: string | undefined): Promise<void> {
  clear(root);
  const card = h('section', { class: 'card', id: 'mail-page' });
  root.append(card);
  const done = (title: string, ...lines: (string | Node)[]) => {
    clear(card);
    card.append(h('h2', {}, title), ...lines.map((l) => h('p', {}, l)), h('p', {}, h('a', { href: '#/' }, 'To the lobby')));
  };
  const failed = (title: string, e: unknown) => {
    clear(card);
    card.append(h('h2', {}, title), h('p', { class: 'error', id: 'mail-error' }, String((e as Error).message)), h('p', {}, h('a', { href: '#/' }, 'To the lobby')));
  };
  if (what === 'confirm' && token) {
    try {
      const r = await mailApi.confirm(token);
      done('Address confirmed', `Mail for your games goes to ${r.address} now. Choose which in the lobby, under Email.`);
    } catch (e) {
      failed('This link did not confirm an address', e);
    }
  } else if (what === 'unsubscribe' && token) {
    await unsubscribePage(token, done, failed);
  } else if (what === 'reset' && token) {
    resetForm(card, token, done);
  } else {
    await forgotForm(card);
  }
}

type Done = (title: string, ...lines: (string | Node)[]) => void;
type Failed = (title: string, e: unknown) => void;

async function unsubscribePage(token: string, done: Done, failed: Failed) {
  try {
    const r = await mailApi.unsubscribe(token);
    const all = h('button', { id: 'unsubscribe-all', onclick: async () => {
      try {
        await mailApi.unsubscribe(token, true);
        done('Unsubscribed', 'You will get no more mail about your games.');
      } catch (e) {
        failed('Could not unsubscribe', e);
      }
    } }, 'Stop all mail');
    done('Unsubscribed', `You will get no more mail about ${NOTICES[r.notice] ?? r.notice}.`, all);
  } catch (e) {
    failed('Could not unsubscribe', e);
  }
}

function resetForm(card: HTMLElement, token: string, done: Done) {
  const password = h('input', { id: 'new-password', type: 'password', autocomplete: 'new-password', minlength: 8, maxlength: 128, required: true, placeholder: 'new password', 'aria-label': 'New password' });
  const error = h('p', { class: 'error', id: 'mail-error' });
  const submit = async () => {
    try {
      const r = await mailApi.reset(token, password.value);
      session.set(null);
      done('Password changed', `The account ${r.name} has its new password. Every place it was signed in is signed out: sign in again.`);
    } catch (e) {
      error.textContent = (e as Error).message;
    }
  };
  card.append(
    h('h2', {}, 'Choose a new password'),
    h('form', { class: 'row', onsubmit: (e: Event) => { e.preventDefault(); void submit(); } },
      password, h('button', { type: 'submit', class: 'primary', id: 'reset-submit' }, 'Set password')),
    error,
  );
}

async function forgotForm(card: HTMLElement) {
  card.append(h('h2', {}, 'Forgot your password?'));
  const settings = await mailApi.settings().catch(() => null);
  if (settings && !settings.enabled) {
    card.append(h('p', { id: 'mail-off' }, 'This server sends no mail, so it cannot send a reset link: ask its host to reset your password.'));
    return;
  }
  const who = h('input', { id: 'forgot-who', required: true, maxlength: 254, placeholder: 'name or email address', autocomplete: 'username', 'aria-label': 'Account name or email address' });
  const answer = h('p', { id: 'forgot-answer', class: 'muted' });
  const submit = async () => {
    try {
      await mailApi.forgot(who.value);
      answer.textContent = 'If that account has a confirmed email address, a link to choose a new password is on its way. It works once, for an hour.';
    } catch (e) {
      answer.textContent = (e as Error).message;
      answer.className = 'error';
    }
  };
  card.append(
    h('p', {}, 'We mail a link to choose a new password to the address the account confirmed.'),
    h('form', { class: 'row', onsubmit: (e: Event) => { e.preventDefault(); void submit(); } },
      who, h('button', { type: 'submit', class: 'primary', id: 'forgot-submit' }, 'Send the link')),
    answer,
  );
}
