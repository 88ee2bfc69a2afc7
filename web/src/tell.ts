// Being told in every tab (issue 42): the games waiting for you in the title ("(2) GoBeyond")
// and on the favicon, and browser notifications the player asks for (a button, never a prompt
// on load) — your turn, a game's end, a rematch offered; other kinds register a source.
//
// How tabs share the work: every tab shows the count, from `GET /api/tell` polled by one
// leader tab (a Web Lock held while the tab lives; the next tab takes over when it closes),
// every 25 s and when poked (a move seen on a socket, the tab shown again). Each answer goes to
// the other tabs over a BroadcastChannel. Only the leader notifies, so several tabs never show
// one notice twice; notices already shown are remembered in localStorage (each notice has a
// key), so a new leader does not repeat them. The database answers /api/tell, so any server
// instance does.

import { api } from './api';
import type { Tell } from './protocol';
import type { Socket } from './socket';

/** A notice the browser may show. `game`: none is shown while a focused tab shows that game. */
export interface Notice {
  key: string;
  title: string;
  body: string;
  href: string;
  game?: number;
}

/** Where notices come from; the tell endpoint is the first. A new kind (challenges) adds one. */
export type NoticeSource = () => Promise<Notice[]>;

const POLL_MS = 25_000;
const TITLE = 'GoBeyond';
const SEEN_KEY = 'gb-tell-seen';
const FOCUS_KEY = 'gb-tell-focus';
export const NOTIFY_KEY = 'gb-notify';
/** Notices remembered as shown (the oldest forgotten first). */
const SEEN_MAX = 400;

const tabId = Math.random().toString(36).slice(2);
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('gb-tell') : null;
let leader = false;
let latest: Tell | null = null;
const listeners = new Set<(t: Tell) => void>();
const sources: NoticeSource[] = [];

/** The notices one answer of /api/tell carries. */
export function tellNotices(t: Tell): Notice[] {
  const out: Notice[] = [];
  for (const w of t.waiting) {
    const what = w.kind === 'undo' ? 'An undo request waits for your answer' : w.kind === 'decision' ? 'Your decision' : 'Your move';
    out.push({ key: `${w.kind === 'undo' ? 'undo' : 'turn'}:${w.game}:${w.seq}`, game: w.game, href: `#/game/${w.game}`, title: `${what} in game #${w.game}`, body: w.left_ms !== null ? `${timeLeft(w.left_ms)} left` : 'No clock' });
  }
  for (const e of t.ended) {
    out.push({ key: `end:${e.game}`, game: e.game, href: `#/game/${e.game}`, title: `Game #${e.game} is over`, body: 'See the result' });
    if (e.rematch !== null) {
      out.push({ key: `rematch:${e.rematch}`, game: e.game, href: `#/game/${e.rematch}`, title: `A rematch of game #${e.game} is offered`, body: 'Take your seat' });
    }
  }
  return out;
}

/** "3 days", "5 h", "12 min", "40 s": how much time is left, roughly. */
export function timeLeft(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s >= 2 * 86_400) return `${Math.floor(s / 86_400)} days`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h`;
  if (s >= 60) return `${Math.floor(s / 60)} min`;
  return `${s} s`;
}

/** The title with the count of games waiting. */
export function titleFor(waiting: number): string {
  return waiting > 0 ? `(${waiting}) ${TITLE}` : TITLE;
}

/** The favicon: the stone, with a red badge and the count when games wait. */
export function faviconFor(waiting: number): string {
  const badge = waiting > 0
    ? `<circle cx='11' cy='11' r='5' fill='%23d22'/><text x='11' y='14' font-size='8' font-family='sans-serif' font-weight='bold' text-anchor='middle' fill='white'>${waiting > 9 ? '+' : waiting}</text>`
    : `<circle cx='11' cy='5' r='3' fill='%23eee'/>`;
  return `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%23222'/%3E${badge.replace(/</g, '%3C').replace(/>/g, '%3E')}%3C/svg%3E`;
}

function show(t: Tell) {
  latest = t;
  const n = t.waiting.length;
  document.title = titleFor(n);
  let icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!icon) {
    icon = document.createElement('link');
    icon.rel = 'icon';
    document.head.append(icon);
  }
  icon.href = faviconFor(n);
  document.documentElement.dataset.waiting = String(n);
  for (const l of listeners) l(t);
}

/** The last answer, and each next one (for the lobby's "your move" markers). */
export function onTell(l: (t: Tell) => void): () => void {
  listeners.add(l);
  if (latest) l(latest);
  return () => listeners.delete(l);
}

/** An answer this tab fetched itself (the lobby's refresh): shown, shared, noticed. */
export function tellFetched(t: Tell) {
  show(t);
  channel?.postMessage({ type: 'tell', tell: t });
  if (leader) void notice(tellNotices(t));
}

/** Asks the leader for a fresh answer now (and once more shortly: the game's owner records
 *  who it waits for just after it answers a move). */
export function pokeTell() {
  if (leader) void poll();
  else channel?.postMessage({ type: 'poke' });
}

let polling = false;
async function poll() {
  if (polling) return;
  polling = true;
  try {
    const t = await api.tell();
    tellFetched(t);
    for (const source of sources) await notice(await source().catch(() => []));
  } catch {
    // Signed out or offline: the next tick tries again.
  } finally {
    polling = false;
  }
}

let pokeTimer: ReturnType<typeof setTimeout> | undefined;
function pokedLeader() {
  void poll();
  clearTimeout(pokeTimer);
  pokeTimer = setTimeout(() => void poll(), 1500);
}

/** Adds a kind of notice: its source is asked at each poll (e.g. incoming challenges). */
export function addNoticeSource(source: NoticeSource) {
  sources.push(source);
}

export function notificationsOn(): boolean {
  return localStorage.getItem(NOTIFY_KEY) === 'on' && typeof Notification === 'function' && Notification.permission === 'granted';
}

function readSeen(): string[] | null {
  try {
    const v = JSON.parse(localStorage.getItem(SEEN_KEY) ?? 'null') as unknown;
    return Array.isArray(v) ? v.map(String) : null;
  } catch {
    return null;
  }
}

/** The game a focused tab shows now, if any (kept fresh by that tab). */
function focusedGame(): number | null {
  try {
    const f = JSON.parse(localStorage.getItem(FOCUS_KEY) ?? 'null') as { game: number | null; at: number } | null;
    return f && Date.now() - f.at < 60_000 ? f.game : null;
  } catch {
    return null;
  }
}

/** Shows the notices not shown before (the very first answer only marks what is there). */
async function notice(items: Notice[]) {
  const run = async () => {
    const known = readSeen();
    const seen = new Set(known ?? []);
    const fresh = items.filter((n) => !seen.has(n.key));
    if (fresh.length === 0 && known !== null) return;
    const watching = focusedGame();
    for (const n of fresh) {
      seen.add(n.key);
      if (known === null || !notificationsOn() || (n.game !== undefined && n.game === watching)) continue;
      const note = new Notification(n.title, { body: n.body, tag: n.key });
      note.onclick = () => {
        window.focus();
        location.hash = n.href;
        note.close();
      };
    }
    localStorage.setItem(SEEN_KEY, JSON.stringify([...seen].slice(-SEEN_MAX)));
  };
  // Under a lock too: tabs without the leader lock (no Web Locks) must not both notify.
  if (navigator.locks) await navigator.locks.request('gb-tell-notice', run);
  else await run();
}

/** Records which game this tab shows while it has the focus. */
function markFocus() {
  const m = /^#\/game\/(\d+)/.exec(location.hash);
  if (document.hasFocus() && document.visibilityState === 'visible') {
    localStorage.setItem(FOCUS_KEY, JSON.stringify({ tab: tabId, game: m ? Number(m[1]) : null, at: Date.now() }));
    return;
  }
  try {
    const f = JSON.parse(localStorage.getItem(FOCUS_KEY) ?? 'null') as { tab?: string } | null;
    if (f?.tab === tabId) localStorage.removeItem(FOCUS_KEY);
  } catch {
    localStorage.removeItem(FOCUS_KEY);
  }
}

/** Pokes the leader whenever a game this tab watches moves on (ours or another's move). */
export function followSocket(socket: Socket) {
  socket.onMessage((msg) => {
    const type = (msg as { type?: string }).type;
    if (type === 'update' || type === 'started' || type === 'rematch' || type === 'undo') pokeTell();
  });
}

/** Starts telling in this tab (once, after the session exists). */
export function startTell() {
  channel?.addEventListener('message', (e: MessageEvent) => {
    const m = e.data as { type: string; tell?: Tell };
    if (m.type === 'tell' && m.tell) {
      show(m.tell);
      if (leader) void notice(tellNotices(m.tell));
    } else if (m.type === 'poke' && leader) pokedLeader();
  });
  for (const ev of ['focus', 'blur', 'hashchange', 'visibilitychange']) window.addEventListener(ev, markFocus);
  document.addEventListener('visibilitychange', () => {
    markFocus();
    if (document.visibilityState === 'visible') pokeTell();
  });
  window.setInterval(markFocus, 20_000);
  markFocus();
  const lead = () => {
    leader = true;
    void poll();
    window.setInterval(() => void poll(), POLL_MS);
  };
  if (navigator.locks) {
    // Held while this tab lives: the promise never settles.
    void navigator.locks.request('gb-tell-leader', () => {
      lead();
      return new Promise<never>(() => {});
    });
  } else lead();
  // A tab that is not the leader shows the count at once rather than at the leader's next poll.
  window.setTimeout(() => {
    if (!latest) void api.tell().then(show).catch(() => undefined);
  }, 500);
}

/** The header's switch for notifications: the browser is asked for permission on its first
 *  click only (never on load); afterwards it turns them on and off. */
export function notifyToggle(): HTMLButtonElement {
  const button = document.createElement('button');
  button.id = 'notify-toggle';
  button.className = 'notify-toggle';
  const supported = typeof Notification === 'function';
  const render = () => {
    const on = notificationsOn();
    const denied = supported && Notification.permission === 'denied';
    // A bell drawn here (an emoji needs a font phones and servers may lack); on a phone the
    // bell alone, its words in the label.
    button.innerHTML = `<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><path d="M8 1.5a4 4 0 0 0-4 4v3L2.5 11h11L12 8.5v-3a4 4 0 0 0-4-4zM6.5 12.5a1.5 1.5 0 0 0 3 0" fill="${on ? 'currentColor' : 'none'}" stroke="currentColor" stroke-width="1.3"/></svg><span class="label">${on ? 'Notifying' : 'Notify me'}</span>`;
    button.setAttribute('aria-label', on ? 'Notifications on' : 'Notify me');
    button.setAttribute('aria-pressed', String(on));
    button.title = !supported
      ? 'This browser cannot show notifications'
      : denied
        ? 'Notifications are blocked for this site in the browser\'s settings'
        : on
          ? 'Notifications are on (your turn, game ends, rematches): click to turn them off'
          : 'Be notified of your turn, game ends and rematches, even in another tab';
    button.disabled = !supported || denied;
  };
  button.addEventListener('click', async () => {
    if (!supported) return;
    if (notificationsOn()) {
      localStorage.setItem(NOTIFY_KEY, 'off');
    } else {
      const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
      localStorage.setItem(NOTIFY_KEY, permission === 'granted' ? 'on' : 'off');
    }
    render();
  });
  // Another tab may switch them.
  window.addEventListener('storage', (e) => {
    if (e.key === NOTIFY_KEY) render();
  });
  render();
  return button;
}
