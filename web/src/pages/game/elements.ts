// The game page's elements and where they sit: the board on one side; on the other the play
// card (on a phone it stays on screen above the board), the players, Clean-Up, the result, the
// log and the chat.

import { h } from '../../dom';
import type { GameInfo, MapView } from '../../types';
import type { Prefs } from './context';
import { eventLine } from './event';

export interface Elements {
  page: HTMLElement;
  board: HTMLElement;
  hover: HTMLElement;
  status: HTMLElement;
  clock: HTMLElement;
  connection: HTMLElement;
  rulesLine: HTMLElement;
  players: HTMLElement;
  actions: HTMLElement;
  panel: HTMLElement;
  cleanup: HTMLElement;
  result: HTMLElement;
  log: HTMLElement;
  chatLog: HTMLElement;
  chatForm: HTMLFormElement;
  chatInput: HTMLInputElement;
  /** In place of the chat box for spectators who may not speak. */
  chatClosed: HTMLElement;
  placeInput: HTMLInputElement;
  placeForm: HTMLFormElement;
  /** Spectators are told they are watching. */
  watching: HTMLElement;
  /** Won or lost, once the game is over. */
  banner: HTMLElement;
  join: HTMLElement;
  /** An undo request waiting for answers. */
  undo: HTMLElement;
  /** The list of keys ("?"), and the button that shows it. */
  keyHelp: HTMLElement;
  keysButton: HTMLButtonElement;
  /** Reports the game or a player in it to the moderators. */
  reportButton: HTMLButtonElement;
  prefs: { confirm: HTMLInputElement; sound: HTMLInputElement; atari: HTMLInputElement; labels: HTMLInputElement };
}

export function elements(id: number, map: MapView, info: GameInfo, prefs: Prefs, rulesLine: string): Elements {
  const rulesHref = `#/rules/${info.rules.system}`;
  const el = {
    board: h('div', { class: 'board-box', id: 'board' }),
    hover: h('div', { class: 'hover muted', id: 'hover' }, '\u00a0'),
    status: h('div', { class: 'status', id: 'status', 'aria-live': 'polite' }),
    clock: h('div', { class: 'clock', id: 'clock' }),
    connection: h('span', { class: 'connection', id: 'connection' }),
    rulesLine: h('div', { class: 'muted', id: 'rules-line' }, rulesLine, ' · ', h('a', { href: rulesHref }, 'rules')),
    players: h('table', { class: 'players', id: 'players' }),
    actions: h('div', { class: 'actions', id: 'actions' }),
    panel: h('div', { id: 'system-panel' }),
    cleanup: h('div', { class: 'cleanup card', id: 'cleanup', hidden: true }),
    result: h('div', { class: 'result card', id: 'result', hidden: true }),
    // Read out as moves arrive (the opponent's too), for players who do not see the board.
    log: h('ul', { class: 'log', id: 'log', 'aria-label': 'Game log', role: 'log', 'aria-live': 'polite' }),
    chatLog: h('ul', { class: 'chat-log', id: 'chat-log' }),
    chatInput: h('input', { id: 'chat-input', maxlength: 500, placeholder: 'Say something', 'aria-label': 'Chat message' }),
    chatClosed: h('p', { class: 'muted', id: 'chat-closed', hidden: true }, 'Only the players can chat in this game.'),
    placeInput: h('input', { id: 'place-input', placeholder: 'e.g. E5', size: 6, 'aria-label': 'Place at (label)' }),
    watching: h('div', { class: 'watching', id: 'watching', hidden: true }, 'You are watching this game.'),
    banner: h('div', { class: 'banner', id: 'banner', hidden: true }),
    join: h('div', { class: 'join', id: 'join' }),
    undo: h('div', { class: 'undo-box', id: 'undo-box', hidden: true }),
    keyHelp: h('div', { class: 'key-help card', id: 'key-help', role: 'dialog', 'aria-label': 'Keys', hidden: true }),
    keysButton: h('button', { type: 'button', id: 'keys-button', class: 'small', title: 'The keyboard shortcuts (?)' }, 'Keys ?'),
    reportButton: h('button', { type: 'button', id: 'report-game', class: 'small report-button', title: 'Report this game or a player in it to the moderators' }, 'Report'),
    prefs: {
      confirm: h('input', { type: 'checkbox', id: 'pref-confirm', checked: prefs.confirm }),
      sound: h('input', { type: 'checkbox', id: 'pref-sound', checked: prefs.sound }),
      atari: h('input', { type: 'checkbox', id: 'pref-atari', checked: prefs.atari }),
      labels: h('input', { type: 'checkbox', id: 'pref-labels', checked: prefs.labels }),
    },
  };
  const placeForm = h('form', { class: 'row', id: 'place-form' }, h('label', {}, 'Place at ', el.placeInput), h('button', { type: 'submit' }, 'Place'));
  // Hidden until the page knows whether and where the viewer may speak (renderChatForm).
  const chatForm = h('form', { class: 'row', id: 'chat-form', hidden: true }, el.chatInput, h('button', { type: 'submit' }, 'Send'));
  const page = h('div', { class: 'game-page' },
    h('div', { class: 'board-col' }, el.board, el.hover),
    h('aside', { class: 'side' },
      // What a player needs while playing: on a phone it stays on screen above the board.
      h('div', { class: 'card play-card', id: 'play-card' },
        h('div', { class: 'row spread' }, h('strong', {}, `Game #${id} · ${map.name}`), el.connection),
        el.rulesLine,
        eventLine(info.event),
        el.watching, el.banner,
        h('div', { class: 'row spread status-row' }, el.status, el.clock),
        el.join, el.undo, el.actions, el.panel,
        placeForm,
      ),
      h('div', { class: 'card' },
        el.players,
        h('div', { class: 'row prefs' },
          h('label', { class: 'check' }, el.prefs.confirm, ' confirm before placing'),
          h('label', { class: 'check' }, el.prefs.atari, ' show stones in atari'),
          h('label', { class: 'check' }, el.prefs.sound, ' sounds'),
          h('label', { class: 'check' }, el.prefs.labels, ' node names'),
          el.keysButton,
          el.reportButton,
        ),
        el.keyHelp,
      ),
      sessionStorage.getItem(`first-game-${id}`) ? firstGameTips(rulesHref) : null,
      el.cleanup,
      el.result,
      h('div', { class: 'card' }, h('h3', {}, 'Game log'), el.log),
      h('div', { class: 'card' }, h('h3', {}, 'Chat'), el.chatLog, chatForm, el.chatClosed),
    ),
  );
  return { ...el, page, placeForm, chatForm };
}

/** Tips beside the first game a newcomer plays. */
function firstGameTips(rulesHref: string): HTMLElement {
  return h('div', { class: 'card first-game', id: 'first-game-tips' },
    h('h3', {}, 'Your first game'),
    h('ul', {},
      h('li', {}, 'You play Black and move first: click a point where the lines cross to place a stone.'),
      h('li', {}, 'Surround empty points, and capture white stones by taking their last free neighbour.'),
      h('li', {}, 'No clock: take your time. Undo takes back a move; when nothing useful is left, Pass — two passes end the game.')),
    h('p', {}, h('a', { href: rulesHref }, 'How to play, with pictures')));
}
