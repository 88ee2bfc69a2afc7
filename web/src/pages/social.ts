// The lobby's social part: challenges in and out, "play someone now" (automatch), the players
// one follows (online, their live games) and one blocked; and the create form's challenge
// fields. Lists refresh by polling, which also tells the server the player is here.

import { TIME_PRESETS } from '../time';
import { ApiError, type RuleSystem } from '../api';
import { clear, h, toast } from '../dom';
import type { ChallengeView, PersonView, SeekView, User } from '../protocol';
import { type ChallengeTerms, type SeekBody, social } from '../social';
import '../social.css';

const REFRESH_MS = 5000;
const SEEK_POLL_MS = 2000;
const SHAPES = ['square', 'hex', 'honeycomb', 'tri', 'wavy', 'torus'];
/** Challenges this page sent or saw waiting: when one of mine is accepted while the lobby is
 *  shown, its game opens. */
const seenPending = new Set<number>();

function failed(e: unknown) {
  toast(e instanceof ApiError ? e.message : String(e), 'error');
}

/** The lobby's social sections, refreshing themselves until the returned stop is called. */
export function socialSections(user: User, systems: RuleSystem[]): { element: HTMLElement; stop: () => void } {
  const challenges = h('div', { class: 'card', id: 'challenges' }, h('h2', {}, 'Challenges'), h('p', { class: 'muted' }, 'Loading…'));
  const following = h('div', { class: 'card', id: 'following' }, h('h2', {}, 'Following'), h('p', { class: 'muted' }, 'Loading…'));
  const seek = seekCard(systems);
  const element = h('section', { class: 'social' }, challenges, seek.element, following);
  let busy = false;
  const refresh = async () => {
    if (busy || !element.isConnected) return;
    busy = true;
    try {
      const [list, people, blocked] = await Promise.all([
        user.kind === 'guest' ? null : social.challenges(),
        social.following(),
        social.blocked(),
      ]);
      if (list) {
        const accepted = list.challenges.find((c) => !c.incoming && c.status === 'accepted' && c.game !== null && seenPending.has(c.id));
        if (accepted) {
          seenPending.delete(accepted.id);
          location.hash = `#/game/${accepted.game}`;
          return;
        }
        list.challenges.filter((c) => c.status === 'pending').forEach((c) => seenPending.add(c.id));
      }
      renderChallenges(challenges, user, list?.challenges ?? null, refresh);
      renderPeople(following, people, blocked, refresh);
    } catch {
      // The next refresh tries again.
    } finally {
      busy = false;
    }
  };
  void refresh();
  const timer = window.setInterval(refresh, REFRESH_MS);
  return { element, stop: () => { window.clearInterval(timer); seek.stop(); } };
}

function when(ms: number): string {
  const left = ms - Date.now();
  if (left <= 0) return 'expired';
  const hours = Math.round(left / 3_600_000);
  return hours >= 48 ? `${Math.round(hours / 24)} days left` : hours >= 1 ? `${hours} h left` : `${Math.max(1, Math.round(left / 60_000))} min left`;
}

function terms(c: ChallengeView): string {
  const first = c.incoming ? (c.their_seat === 0 ? 'you play first' : 'you play second') : (c.their_seat === 0 ? 'they play first' : 'you play first');
  const clock = c.time.kind === 'none' ? 'no clock' : c.time.kind.replace('_', '-');
  return `${c.rules} on ${c.map}, ${c.players} players, ${clock}${c.rated ? ', rated' : ''}, ${first}`;
}

function renderChallenges(box: HTMLElement, user: User, list: ChallengeView[] | null, refresh: () => Promise<void>) {
  clear(box);
  box.append(h('h2', {}, 'Challenges'));
  if (list === null) {
    box.append(h('p', { class: 'muted' }, `Challenges are between accounts: register (above) to challenge players and be challenged, ${user.name}.`));
    return;
  }
  const act = (c: ChallengeView, answer: 'accept' | 'decline' | 'withdraw', label: string) =>
    h('button', {
      class: answer === 'accept' ? 'primary' : '', 'data-answer': answer,
      onclick: async () => {
        try {
          const r = await social.answer(c.id, answer);
          if (answer === 'accept' && r.game !== null) location.hash = `#/game/${r.game}`;
          else await refresh();
        } catch (e) {
          failed(e);
        }
      },
    }, label);
  const row = (c: ChallengeView) => {
    const who = c.incoming ? h('span', {}, 'From ', h('a', { href: `#/player/${encodeURIComponent(c.from)}` }, c.from)) : h('span', {}, 'To ', h('a', { href: `#/player/${encodeURIComponent(c.to)}` }, c.to));
    const actions = c.status === 'pending'
      ? (c.incoming ? [act(c, 'accept', 'Accept'), act(c, 'decline', 'Decline')] : [act(c, 'withdraw', 'Withdraw')])
      : c.game !== null ? [h('a', { href: `#/game/${c.game}` }, 'Open game')] : [];
    return h('li', { class: 'challenge-row', 'data-challenge': c.id, 'data-status': c.status },
      who, h('span', { class: 'muted' }, ` ${terms(c)} · `, c.status === 'pending' ? when(c.expires_ms) : c.status),
      h('span', { class: 'row' }, ...actions));
  };
  const incoming = list.filter((c) => c.incoming);
  const outgoing = list.filter((c) => !c.incoming);
  box.append(
    h('h3', {}, 'For you'),
    incoming.length ? h('ul', { id: 'incoming-challenges' }, ...incoming.map(row)) : h('p', { class: 'muted' }, 'None. Challenge a player from their page, or with the new game form below.'),
    h('h3', {}, 'Sent'),
    outgoing.length ? h('ul', { id: 'outgoing-challenges' }, ...outgoing.map(row)) : h('p', { class: 'muted' }, 'None.'),
  );
}

function renderPeople(box: HTMLElement, people: PersonView[], blocked: PersonView[], refresh: () => Promise<void>) {
  clear(box);
  box.append(h('h2', {}, 'Following'));
  box.append(people.length === 0
    ? h('p', { class: 'muted' }, 'Nobody yet: follow players from their page to see when they are here.')
    : h('ul', { id: 'following-list' }, ...people.map((p) => h('li', { 'data-person': p.name },
        h('span', { class: p.online ? 'presence online' : 'presence', title: p.online ? 'online' : 'away' }, p.online ? '●' : '○'), ' ',
        h('a', { href: `#/player/${encodeURIComponent(p.name)}` }, p.name),
        h('span', { class: 'muted' }, p.online ? ' online' : ' away'),
        ...p.live_games.map((g) => h('a', { class: 'tag', href: `#/game/${g}` }, `watch #${g}`)),
      ))));
  if (blocked.length) {
    box.append(h('details', { id: 'blocked-list' }, h('summary', {}, `Blocked players (${blocked.length})`),
      h('ul', {}, ...blocked.map((p) => h('li', {}, p.name, ' ', h('button', {
        onclick: async () => {
          try {
            await social.unblock(p.name);
            await refresh();
          } catch (e) {
            failed(e);
          }
        },
      }, 'Unblock'))))));
  }
}

/** "Play someone now": the seek form, or the running seek's state, polled until paired. */
function seekCard(systems: RuleSystem[]): { element: HTMLElement; stop: () => void } {
  const box = h('div', { class: 'card', id: 'seek' });
  const names = systems.flatMap((s) => (s.presets?.length ? s.presets.map((p) => ({ value: p.name, label: `${s.title} — ${p.name}` })) : [{ value: s.name, label: s.title }]));
  const rules = h('select', { id: 'seek-rules', 'aria-label': 'Rules' }, ...names.map((n) => h('option', { value: n.value }, n.label)));
  const shape = h('select', { id: 'seek-shape', 'aria-label': 'Board' }, ...SHAPES.map((s) => h('option', { value: s }, s)));
  const minSize = h('input', { id: 'seek-min', type: 'number', min: 2, max: 25, value: 9, 'aria-label': 'Smallest size' });
  const maxSize = h('input', { id: 'seek-max', type: 'number', min: 2, max: 25, value: 13, 'aria-label': 'Largest size' });
  const players = h('input', { id: 'seek-players', type: 'number', min: 2, max: 8, value: 2 });
  const clock = h('select', { id: 'seek-clock' },
    h('option', { value: 'none' }, 'No clock'),
    h('option', { value: 'fischer' }, '10 min + 10 s per move'),
    h('option', { value: 'byo' }, '10 min + 5 × 30 s byo-yomi'),
    h('option', { value: 'days' }, 'Correspondence: 3 days per move'),
  );
  const minRating = h('input', { id: 'seek-min-rating', type: 'number', placeholder: 'any', 'aria-label': 'Lowest rating' });
  const maxRating = h('input', { id: 'seek-max-rating', type: 'number', placeholder: 'any', 'aria-label': 'Highest rating' });
  const bots = h('select', { id: 'seek-bots' },
    h('option', { value: '' }, 'Wait for people'),
    ...[15, 30, 60, 180].map((s) => h('option', { value: String(s) }, `Bots fill empty seats after ${s < 60 ? `${s} s` : `${s / 60} min`}`)),
  );
  const status = h('div', { id: 'seek-status' });
  const form = h('form', { id: 'seek-form' },
    h('div', { class: 'grid2' },
      h('label', {}, 'Rules ', rules),
      h('label', {}, 'Players ', players),
      h('label', {}, 'Board ', shape),
      h('label', {}, 'Size from ', h('span', { class: 'row' }, minSize, ' to ', maxSize)),
      h('label', {}, 'Clock ', clock),
      h('label', {}, 'Opponents rated ', h('span', { class: 'row' }, minRating, ' to ', maxRating)),
      h('label', {}, 'If nobody comes ', bots),
    ),
    h('button', { type: 'submit', class: 'primary', id: 'seek-start' }, 'Find an opponent'),
  );
  box.append(h('h2', {}, 'Play someone now'), form, status);
  let timer: number | undefined;
  const stopPolling = () => window.clearTimeout(timer);
  const show = (s: SeekView | null) => {
    stopPolling();
    clear(status);
    form.hidden = s !== null && s.state !== 'matched';
    if (s === null) return;
    if (s.state === 'matched' && s.game !== null) {
      location.hash = `#/game/${s.game}`;
      return;
    }
    const others = s.others === 0 ? 'nobody else is looking yet' : `${s.others} other${s.others === 1 ? '' : 's'} looking`;
    status.append(
      h('p', { id: 'seek-waiting' }, `Looking for a ${s.players}-player game of ${s.rules} on ${s.shape} ${s.min_size}–${s.max_size}… `,
        h('span', { class: 'muted' }, `${Math.round(s.waited_ms / 1000)} s, ${others}; ratings ${s.accepts[0]}–${s.accepts[1]} accepted`)),
      h('button', { id: 'seek-stop', onclick: async () => {
        try {
          await social.stopSeeking();
          show(null);
        } catch (e) {
          failed(e);
        }
      } }, 'Stop looking'),
    );
    timer = window.setTimeout(poll, SEEK_POLL_MS);
  };
  const poll = async () => {
    if (!box.isConnected) return;
    try {
      show(await social.pollSeek());
    } catch {
      timer = window.setTimeout(poll, SEEK_POLL_MS);
    }
  };
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const optional = (i: HTMLInputElement) => (i.value.trim() === '' ? undefined : Number(i.value));
    const body: SeekBody = {
      rules: rules.value, shape: shape.value, min_size: Number(minSize.value), max_size: Number(maxSize.value),
      players: Number(players.value), min_rating: optional(minRating), max_rating: optional(maxRating),
      time: { none: { kind: 'none' }, fischer: { kind: 'fischer', main_seconds: 600, increment_seconds: 10 }, byo: { kind: 'byo_yomi', main_seconds: 600, periods: 5, period_seconds: 30 }, days: TIME_PRESETS.find((p) => p.name === 'correspondence_3')?.time }[clock.value],
      bots_after_seconds: bots.value ? Number(bots.value) : undefined,
    };
    try {
      show(await social.seek(body));
    } catch (err) {
      failed(err);
    }
  });
  // A seek started before a reload goes on.
  void poll();
  return { element: box, stop: stopPolling };
}

/** The create form's challenge fields: an opponent's name (from `#/?challenge=NAME` too), who
 *  plays first, how long the challenge waits. */
export function challengeFields(submit: HTMLButtonElement): { element: HTMLElement; read: (seats: unknown[]) => ChallengeTerms | null } {
  const named = new URLSearchParams(location.hash.split('?')[1] ?? '').get('challenge') ?? '';
  const to = h('input', { id: 'challenge-to', name: 'challenge-to', value: named, placeholder: 'a player\u2019s name (optional)', autocomplete: 'off', spellcheck: 'false' });
  const first = h('select', { id: 'challenge-first', 'aria-label': 'Who plays first' },
    h('option', { value: 'me' }, 'You play first'),
    h('option', { value: 'them' }, 'They play first'),
  );
  const expiry = h('select', { id: 'challenge-expiry', 'aria-label': 'The challenge waits' },
    ...[[3600, '1 hour'], [86_400, '1 day'], [3 * 86_400, '3 days'], [7 * 86_400, '7 days']].map(([s, label]) => h('option', { value: String(s) }, `waits ${label}`)),
  );
  expiry.value = String(7 * 86_400);
  const element = h('fieldset', { class: 'challenge-fields', id: 'challenge-fields' },
    h('legend', {}, 'Challenge a player'),
    h('div', { class: 'grid2' }, h('label', {}, 'Opponent ', to), h('label', {}, 'Colours ', first), h('label', {}, 'Answer within ', expiry)),
  );
  const read = (seats: unknown[]): ChallengeTerms | null => {
    const name = to.value.trim();
    if (!name) return null;
    // The opponent takes seat 2 (whatever it was set to); "they play first" swaps seats 1 and 2.
    seats[1] = { kind: 'open' };
    let their = 1;
    if (first.value === 'them') {
      [seats[0], seats[1]] = [seats[1], seats[0]];
      their = 0;
    }
    return { to: name, their_seat: their, expires_seconds: Number(expiry.value) };
  };
  const label = submit.textContent;
  const relabel = () => { submit.textContent = to.value.trim() ? 'Send challenge' : label; };
  to.addEventListener('input', relabel);
  relabel();
  if (named) queueMicrotask(() => element.scrollIntoView({ block: 'center' }));
  return { element, read };
}

/** Sends the challenge the create form describes; the lobby's list shows it. */
export async function sendChallenge(game: unknown, t: ChallengeTerms) {
  try {
    seenPending.add((await social.challenge(game, t)).id);
    toast(`Challenge sent to ${t.to}.`);
    history.replaceState(null, '', '#/');
    document.getElementById('challenges')?.scrollIntoView({ block: 'start' });
  } catch (e) {
    failed(e);
  }
}
