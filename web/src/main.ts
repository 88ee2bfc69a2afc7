// The client's entry: one socket for the page, hash routes, and the page in view.

import { clear, h } from './dom';
import { gamePage } from './pages/game';
import { lobbyPage } from './pages/lobby';
import { playerPage } from './pages/player';
import { reviewPage } from './pages/review';
import { analysePage } from './pages/analyse';
import { guidePage } from './pages/guide';
import { rulesPage } from './pages/rules';
import { labPage } from './pages/lab';
import { mailPage } from './pages/mail';
import { tournamentsPage } from './pages/tournaments';
import { accountPage } from './moderation/account';
import { moderationPage } from './moderation/page';
import { standingOnRoute } from './moderation/standing';
import { session } from './session';
import { Socket } from './socket';
import { challengeNotices } from './social';
import { addNoticeSource, followSocket, notifyToggle, startTell } from './tell';
import './style.css';

const root = document.getElementById('app') as HTMLElement;
let socket: Socket | null = null;
let leave: (() => void) | null = null;

function getSocket(): Socket {
  if (!socket) {
    socket = new Socket();
    followSocket(socket);
  }
  return socket;
}

/** Counts navigations: a page that finishes loading after the player has gone on is dropped. */
let routes = 0;
let telling = false;

async function route() {
  const mine = ++routes;
  leave?.();
  leave = null;
  // A new page starts at its top (hash navigation keeps the old page's scroll position), and
  // the old one goes at once: its players, board and buttons belong to another game (a rematch
  // once showed the old game's players until the new one had loaded).
  window.scrollTo(0, 0);
  root.replaceChildren(h('p', { class: 'muted', id: 'page-loading' }, 'Loading…'));
  const path = location.hash.replace(/^#/, '').split('?')[0] || '/';
  const parts = path.split('/').filter(Boolean);
  let left: (() => void) | null = null;
  try {
    const user = await session.user();
    if (!telling) {
      // Once a session exists: the count in the title, notices, and their switch.
      telling = true;
      addNoticeSource(challengeNotices);
      startTell();
      document.getElementById('whoami')?.before(notifyToggle());
    }
    // The moderators' link and a standing banner, as the server last said.
    standingOnRoute();
    const who = document.getElementById('whoami');
    if (who) {
      clear(who);
      who.append(user.kind === 'guest' ? user.name : h('a', { href: `#/player/${encodeURIComponent(user.name)}` }, user.name));
    }
    if (parts[0] === 'game' && parts[1]) {
      // The socket is opened after the session exists: it authenticates with the cookie.
      left = await gamePage(root, Number(parts[1]), getSocket());
    } else if (parts[0] === 'review' && parts[1]) {
      left = await reviewPage(root, Number(parts[1]));
    } else if (parts[0] === 'analyse') {
      left = await analysePage(root, new URLSearchParams(location.hash.split('?')[1] ?? ''));
    } else if (parts[0] === 'player' && parts[1]) {
      await playerPage(root, decodeURIComponent(parts[1]));
    } else if (parts[0] === 'mail') {
      await mailPage(root, parts[1], parts[2]);
    } else if (parts[0] === 'account') {
      await accountPage(root);
    } else if (parts[0] === 'moderation') {
      await moderationPage(root);
    } else if (parts[0] === 'tournaments') {
      left = await tournamentsPage(root, parts[1] ? Number(parts[1]) : undefined);
    } else if (parts[0] === 'lab') {
      await labPage(root, parts[1] ? decodeURIComponent(parts[1]) : undefined);
    } else if (parts[0] === 'rules' && parts[2] === 'reference') {
      await rulesPage(root, parts[1] ?? 'gobeyond');
    } else if (parts[0] === 'rules') {
      await guidePage(root, parts[1] ?? 'gobeyond');
    } else {
      left = await lobbyPage(root);
    }
  } catch (e) {
    if (mine !== routes) return;
    clear(root);
    root.append(h('div', { class: 'card error', id: 'page-error' }, h('h2', {}, 'Something went wrong'), h('p', {}, String((e as Error).message)), h('a', { href: '#/' }, 'Back to the lobby')));
    return;
  }
  if (mine === routes) {
    leave = left;
    return;
  }
  // The player went on while this page loaded: it stops (its socket watch, its timers).
  left?.();
}

window.addEventListener('hashchange', () => void route());
void route();
