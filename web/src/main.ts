// The client's entry: one socket for the page, hash routes, and the page in view.

import { clear, h } from './dom';
import { gamePage } from './pages/game';
import { lobbyPage } from './pages/lobby';
import { playerPage } from './pages/player';
import { reviewPage } from './pages/review';
import { guidePage } from './pages/guide';
import { rulesPage } from './pages/rules';
import { labPage } from './pages/lab';
import { session } from './session';
import { Socket } from './socket';
import './style.css';

const root = document.getElementById('app') as HTMLElement;
let socket: Socket | null = null;
let leave: (() => void) | null = null;

function getSocket(): Socket {
  if (!socket) socket = new Socket();
  return socket;
}

async function route() {
  leave?.();
  leave = null;
  // A new page starts at its top (hash navigation keeps the old page's scroll position).
  window.scrollTo(0, 0);
  const path = location.hash.replace(/^#/, '').split('?')[0] || '/';
  const parts = path.split('/').filter(Boolean);
  try {
    const user = await session.user();
    const who = document.getElementById('whoami');
    if (who) {
      clear(who);
      who.append(user.kind === 'guest' ? user.name : h('a', { href: `#/player/${encodeURIComponent(user.name)}` }, user.name));
    }
    if (parts[0] === 'game' && parts[1]) {
      // The socket is opened after the session exists: it authenticates with the cookie.
      leave = await gamePage(root, Number(parts[1]), getSocket());
    } else if (parts[0] === 'review' && parts[1]) {
      leave = await reviewPage(root, Number(parts[1]));
    } else if (parts[0] === 'player' && parts[1]) {
      await playerPage(root, decodeURIComponent(parts[1]));
    } else if (parts[0] === 'lab') {
      await labPage(root, parts[1] ? decodeURIComponent(parts[1]) : undefined);
    } else if (parts[0] === 'rules' && parts[2] === 'reference') {
      await rulesPage(root, parts[1] ?? 'gobeyond');
    } else if (parts[0] === 'rules') {
      await guidePage(root, parts[1] ?? 'gobeyond');
    } else {
      leave = await lobbyPage(root);
    }
  } catch (e) {
    clear(root);
    root.append(h('div', { class: 'card error', id: 'page-error' }, h('h2', {}, 'Something went wrong'), h('p', {}, String((e as Error).message)), h('a', { href: '#/' }, 'Back to the lobby')));
  }
}

window.addEventListener('hashchange', () => void route());
void route();
