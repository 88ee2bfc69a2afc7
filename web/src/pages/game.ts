// The game page: board, players, clock, actions, Clean-Up, event log, chat. The server is the
// authority: the page shows what the last sync or update said and sends actions; the board only
// changes when the server's update arrives.

import { admitIfInvited, api, inviteFor } from '../api';
import { playerStyle } from '../colors';
import { clear, h, toast } from '../dom';
import { component } from '../graph';
import { GameModel, displayName } from '../model';
import { type MountedBoard, mountBoard } from '../mount';
import { session } from '../session';
import type { Socket } from '../socket';
import { type SoundMoment, play, soundsFor } from '../sounds';
import { type CleanupUi, systemUi } from '../systems';
import type { ServerMessage, User } from '../types';
import { ratingText } from '../words';

const PREFS = 'gobeyond-prefs';

interface Prefs {
  confirm: boolean;
  atari: boolean;
  sound: boolean;
  /** Node labels on maps without side coordinates. */
  labels: boolean;
}

function loadPrefs(): Prefs {
  // On touch screens a tap is easily misplaced: confirm before placing unless switched off.
  const touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  try {
    return { confirm: touch, atari: false, sound: true, labels: true, ...JSON.parse(localStorage.getItem(PREFS) ?? '{}') };
  } catch {
    return { confirm: touch, atari: false, sound: true, labels: true };
  }
}

/** GoBeyond's Clean-Up: surrender doomed stones (the default for systems that say nothing). */
const SURRENDER: CleanupUi = {
  intro: 'Click your groups that cannot live to surrender them (each surrendered stone pays whoever then claims its node). Then submit — possibly nothing.',
  chosen: (p) => (p.surrendered ? (p.surrendered.length ? `surrenders ${p.surrendered.join(', ')}` : 'surrenders nothing') : null),
  input: (nodes) => ({ type: 'surrender', nodes }),
  submit: (n) => (n ? `Surrender ${n} stone${n === 1 ? '' : 's'}` : 'Surrender nothing'),
};

/** The rules in one line: the system, and the settings players ask about first. */
function rulesLine(info: { rules: { system: string; [k: string]: unknown }; rated?: boolean }): string {
  const r = info.rules;
  const parts: string[] = [systemUi(r.system).title, info.rated ? 'rated' : 'unrated'];
  if (typeof r.komi === 'number') parts.push(`komi ${r.komi}`);
  if (typeof r.scoring === 'string') parts.push(`${r.scoring} scoring`);
  if (typeof r.ko === 'string') parts.push(`${String(r.ko).replace(/_/g, ' ')} ko`);
  if (r.range === 'dice') parts.push('range from the dice');
  if (r.range === 'fixed') parts.push(`range ${String(r.fixed_range)}`);
  if (r.range === 'unlimited') parts.push('any range');
  if (typeof r.turn_seconds === 'number') parts.push(r.turn_seconds ? `${r.turn_seconds} s per turn` : 'no turn clock');
  return parts.join(' · ');
}

export async function gamePage(root: HTMLElement, id: number, socket: Socket): Promise<() => void> {
  const user: User = await session.user();
  await admitIfInvited(id);
  const [map, info] = await Promise.all([api.gameMap(id), api.game(id)]);
  const model = new GameModel(id, map);
  model.apply({ type: 'lobby', game: id, info });
  const prefs = loadPrefs();
  let pending: number | null = null;
  let hover: number | null = null;
  let selected = new Set<number>();
  let busy = false;
  /** The engine's reason for the last refused action, shown until the game moves on. */
  let refusal: string | null = null;

  clear(root);
  const boardBox = h('div', { class: 'board-box', id: 'board' });
  const status = h('div', { class: 'status', id: 'status', 'aria-live': 'polite' });
  const clockEl = h('div', { class: 'clock', id: 'clock' });
  const connection = h('span', { class: 'connection', id: 'connection' });
  const playersEl = h('table', { class: 'players', id: 'players' });
  const actionsEl = h('div', { class: 'actions', id: 'actions' });
  const panelEl = h('div', { id: 'system-panel' });
  const cleanupEl = h('div', { class: 'cleanup card', id: 'cleanup', hidden: true });
  const resultEl = h('div', { class: 'result card', id: 'result', hidden: true });
  const logEl = h('ul', { class: 'log', id: 'log', 'aria-label': 'Game log' });
  const chatLog = h('ul', { class: 'chat-log', id: 'chat-log' });
  const chatInput = h('input', { id: 'chat-input', maxlength: 500, placeholder: 'Say something', 'aria-label': 'Chat message' });
  const hoverEl = h('div', { class: 'hover muted', id: 'hover' }, '\u00a0');
  const placeInput = h('input', { id: 'place-input', placeholder: 'e.g. E5', size: 6, 'aria-label': 'Place at (label)' });
  const placeForm = h('form', { class: 'row', id: 'place-form', onsubmit: (e: Event) => { e.preventDefault(); placeByLabel(); } },
    h('label', {}, 'Place at ', placeInput), h('button', { type: 'submit' }, 'Place'));
  /** Spectators are told they are watching. */
  const watchingEl = h('div', { class: 'watching', id: 'watching', hidden: true }, 'You are watching this game.');
  /** A rematch another player offered (its link). */
  let rematchOffer: HTMLElement | null = null;
  /** Won or lost, once the game is over. */
  const banner = h('div', { class: 'banner', id: 'banner', hidden: true });
  const joinBox = h('div', { class: 'join', id: 'join' });
  /** An undo request waiting for answers. */
  const undoBox = h('div', { class: 'undo-box', id: 'undo-box', hidden: true });

  const confirmBox = h('input', { type: 'checkbox', id: 'pref-confirm', checked: prefs.confirm });
  const soundBox = h('input', { type: 'checkbox', id: 'pref-sound', checked: prefs.sound });
  const atariBox = h('input', { type: 'checkbox', id: 'pref-atari', checked: prefs.atari });
  const labelsBox = h('input', { type: 'checkbox', id: 'pref-labels', checked: prefs.labels });
  const savePrefs = () => {
    prefs.confirm = confirmBox.checked;
    prefs.atari = atariBox.checked;
    prefs.labels = labelsBox.checked;
    prefs.sound = soundBox.checked;
    localStorage.setItem(PREFS, JSON.stringify(prefs));
    pending = null;
    render();
  };
  confirmBox.addEventListener('change', savePrefs);
  atariBox.addEventListener('change', savePrefs);
  labelsBox.addEventListener('change', savePrefs);
  soundBox.addEventListener('change', savePrefs);

  root.append(
    h('div', { class: 'game-page' },
      h('div', { class: 'board-col' }, boardBox, hoverEl),
      h('aside', { class: 'side' },
        // What a player needs while playing: on a phone it stays on screen above the board.
        h('div', { class: 'card play-card', id: 'play-card' },
          h('div', { class: 'row spread' }, h('strong', {}, `Game #${id} · ${map.name}`), connection),
          h('div', { class: 'muted', id: 'rules-line' }, rulesLine(info), ' · ', h('a', { href: `#/rules/${info.rules.system}` }, 'rules')),
          watchingEl, banner,
          h('div', { class: 'row spread status-row' }, status, clockEl),
          joinBox, undoBox, actionsEl, panelEl,
          placeForm,
        ),
        h('div', { class: 'card' },
          playersEl,
          h('div', { class: 'row prefs' },
            h('label', { class: 'check' }, confirmBox, ' confirm before placing'),
            h('label', { class: 'check' }, atariBox, ' show stones in atari'),
            h('label', { class: 'check' }, soundBox, ' sounds'),
            h('label', { class: 'check' }, labelsBox, ' node names'),
          ),
        ),
        sessionStorage.getItem(`first-game-${id}`) ? h('div', { class: 'card first-game', id: 'first-game-tips' },
          h('h3', {}, 'Your first game'),
          h('ul', {},
            h('li', {}, 'You play Black and move first: click a point where the lines cross to place a stone.'),
            h('li', {}, 'Surround empty points, and capture white stones by taking their last free neighbour.'),
            h('li', {}, 'No clock: take your time. Undo takes back a move; when nothing useful is left, Pass — two passes end the game.')),
          h('p', {}, h('a', { href: `#/rules/${info.rules.system}` }, 'How to play, with pictures'))) : null,
        cleanupEl,
        resultEl,
        h('div', { class: 'card' }, h('h3', {}, 'Game log'), logEl),
        h('div', { class: 'card' }, h('h3', {}, 'Chat'), chatLog,
          h('form', { class: 'row', onsubmit: (e: Event) => { e.preventDefault(); sendChat(); } }, chatInput, h('button', { type: 'submit' }, 'Send'))),
      ),
    ),
  );

  // Boards in space turn to the last move on request (it may be on the far side); the flat
  // view shows every node, so the button goes with the 3-D view.
  const showLast = h('button', {
    id: 'show-last', type: 'button', title: 'Turn the board to the last move', hidden: true,
    onclick: () => {
      if (model.lastMove === null) toast('No move yet.');
      else if (board.focus(model.lastMove)) hoverEl.textContent = `Last move: ${describeNode(model.lastMove)}`;
    },
  }, 'Show last move');
  const board: MountedBoard = await mountBoard(boardBox, map, (node) => pick(node), (node) => {
    const before = hover;
    hover = node;
    hoverEl.textContent = node === null ? '\u00a0' : describeNode(node);
    if (model.ui.hoverMarks && before !== node) drawBoard();
  }, { onView: (kind) => (showLast.hidden = kind !== '3d') });
  boardBox.after(showLast);

  function describeNode(node: number): string {
    const s = model.state;
    const label = map.labels[node];
    if (!s) return label;
    const stone = s.board[node];
    const names = model.naming();
    if (stone !== null && stone !== undefined) {
      const more = model.ui.describeStone?.(node, s, names);
      return `${label}: ${names.player(stone)}'s stone${more ? ` · ${more}` : ''}`;
    }
    return model.ui.describeEmpty(label, node, s, names);
  }

  const mySeat = () => model.seatOf(user.id);
  /** A node picked by a first click, for systems whose input takes two (Tribal Go's Move
   *  cards). */
  let picked: number | null = null;

  function pick(node: number) {
    const state = model.state;
    if (!state || model.info?.status !== 'live') return;
    const seat = mySeat();
    if (seat === null) return;
    if (state.status === 'scoring') {
      // Classic dead stones: a click marks the whole group dead, or alive again.
      if (state.board[node] === null || state.board[node] === undefined || state.players[seat]?.resigned) return;
      const group = component(map, state.board, node).nodes;
      const dead = new Set(state.dead ?? []);
      const on = !dead.has(node);
      for (const s of group) on ? dead.add(s) : dead.delete(s);
      void act({ type: 'dead', nodes: [...dead] });
      return;
    }
    if (state.phase === 'clean_up') {
      if (!(state.awaiting_cleanup ?? []).includes(seat) || state.board[node] !== seat) return;
      // A click selects or clears the whole group: surrendering part of a group is rarely meant.
      const group = component(map, state.board, node).nodes;
      const on = !selected.has(node);
      for (const s of group) on ? selected.add(s) : selected.delete(s);
      render();
      return;
    }
    if (!model.isMyTurn(user.id)) {
      toast('It is not your turn.');
      return;
    }
    const special = model.ui.clickInput?.(state, node, seat, picked);
    if (special) {
      if (special.say) toast(special.say);
      if (special.pick !== undefined) picked = special.pick;
      if (special.input) {
        picked = null;
        void act(special.input);
      }
      render();
      return;
    }
    if (prefs.confirm && pending !== node) {
      pending = node;
      render();
      return;
    }
    pending = null;
    void act({ type: 'place', node });
  }

  function placeByLabel() {
    const label = placeInput.value.trim();
    if (!label) return;
    const node = map.labels.findIndex((l) => l.toLowerCase() === label.toLowerCase());
    if (node < 0) {
      toast(`There is no node ${label} on this map.`, 'error');
      return;
    }
    placeInput.value = '';
    pending = null;
    void act({ type: 'place', node });
  }

  async function act(action: unknown) {
    if (busy) return;
    busy = true;
    refusal = null;
    render();
    try {
      await socket.act(id, action);
    } catch (e) {
      refusal = (e as Error).message;
      toast(`Refused: ${refusal}`, 'error');
    } finally {
      busy = false;
      render();
    }
  }

  function sendChat() {
    const text = chatInput.value.trim();
    if (!text) return;
    socket.chat(id, text);
    chatInput.value = '';
  }

  function renderPlayers() {
    const s = model.state;
    const n = model.players;
    const columns = model.ui.columns;
    const waiting = model.waitingFor();
    // Under a time control every player's clock shows, not only the running one.
    const clock = model.info?.status === 'live' ? model.clock : null;
    const timed = clock !== null && clock !== undefined && clock.control.kind !== 'per_turn' && clock.control.kind !== 'none'
      && clock.remaining_ms.length === n;
    clear(playersEl);
    playersEl.append(
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'Player'), ...columns.map((c) => h('th', {}, c.header)),
        timed ? h('th', {}, 'Time') : null)),
    );
    const body = h('tbody', {});
    for (let seat = 0; seat < n; seat++) {
      const style = s ? (model.ui.seatStyle?.(s, seat) ?? seat) : seat;
      const st = playerStyle(style, n);
      const p = s?.players[seat];
      const seatInfo = model.info?.seats[seat];
      const name = displayName(p?.name || seatInfo?.user) || (seatInfo?.kind?.kind === 'bot'
        ? `bot, level ${seatInfo.bot_level}`
        : seatInfo?.kind?.kind === 'invite' ? 'invited seat (by link)' : 'open seat');
      const row = h('tr', {
        class: `${waiting.includes(seat) ? 'to-move' : ''} ${seat === mySeat() ? 'me' : ''} ${p?.status === 'resigned' || p?.resigned ? 'resigned' : ''}`,
        'data-seat': seat,
      },
        h('td', {}, swatch(style, n)),
        // The colour and the stones on the board under the name: a column less for narrow cards.
        h('td', {},
          seatInfo?.rating && seatInfo.user ? h('a', { href: `#/player/${encodeURIComponent(seatInfo.user)}` }, name) : name,
          seat === mySeat() ? h('strong', {}, ' (you)') : null,
          seatInfo?.rating ? h('span', { class: 'rating muted', 'data-rating-seat': seat }, ` ${ratingText(seatInfo.rating)}`) : null,
          h('div', { class: 'muted small' }, p ? `${st.name} · ${p.stones.length} stone${p.stones.length === 1 ? '' : 's'}` : st.name)),
        ...columns.map((c) => h('td', { class: c.cls, title: c.title }, c.cell(p, s))),
        timed && clock ? h('td', { class: 'player-clock', 'data-clock-seat': seat }, clockText(clock.remaining_ms[seat], clock.periods_left[seat])) : null,
      );
      body.append(row);
    }
    playersEl.append(body);
  }

  function renderStatus() {
    const info = model.info;
    const s = model.state;
    const names = model.naming();
    delete status.dataset.error;
    if (!info) return;
    if (refusal !== null) {
      status.dataset.error = refusal;
      status.textContent = `Refused: ${refusal}`;
    } else if (info.status === 'open') {
      const free = info.seats.filter((x) => x.user_id === null && x.kind?.kind !== 'bot').length;
      status.textContent = `Waiting for ${free} more player${free === 1 ? '' : 's'}.`;
    } else if (info.status === 'finished' || s?.outcome) {
      status.textContent = 'The game is over.';
    } else if (s && model.ui.status?.(s, names, model.isMyTurn(user.id))) {
      status.textContent = model.ui.status(s, names, model.isMyTurn(user.id)) ?? '';
    } else if (s?.status === 'scoring') {
      status.textContent = 'Play has ended: agree on the dead stones.';
    } else if (s?.phase === 'clean_up') {
      status.textContent = `Clean-Up: waiting for ${(s.awaiting_cleanup ?? []).map((p) => names.player(p)).join(', ')}.`;
    } else if (s && s.to_move !== null) {
      status.textContent = model.isMyTurn(user.id) ? 'Your turn.' : `${names.player(s.to_move)} to play.`;
    }
    status.classList.toggle('my-turn', model.isMyTurn(user.id));
  }

  /** The creator's invite code, once fetched (the game page may be opened again later). */
  let creatorInvite: string | null | undefined;

  function renderInvite() {
    const info = model.info;
    if (!info || info.status !== 'open' || info.creator !== user.id) return;
    if (creatorInvite === undefined) {
      creatorInvite = null;
      void api.invite(id).then((r) => {
        creatorInvite = r.invite;
        render();
      }).catch(() => undefined);
      return;
    }
    if (!creatorInvite) return;
    const link = `${location.origin}${location.pathname}#/game/${id}?invite=${creatorInvite}`;
    const field = h('input', { id: 'invite-link', readonly: true, value: link, 'aria-label': 'Invite link' });
    joinBox.append(h('div', { class: 'invite' },
      h('p', {}, 'Invite players with this link (seats marked "invited" and private games need it):'),
      field,
      h('button', {
        id: 'copy-invite',
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            toast('Invite link copied.');
          } catch {
            (field as HTMLInputElement).select();
            toast('Select the link and copy it.');
          }
        },
      }, 'Copy link'),
    ));
  }

  function renderJoin() {
    clear(joinBox);
    renderInvite();
    const info = model.info;
    if (!info || info.status !== 'open' || mySeat() !== null) return;
    const invite = inviteFor(id);
    joinBox.append(h('button', {
      class: 'primary', id: 'join-button',
      onclick: async () => {
        try {
          const r = await api.join(id, invite ? { invite } : {});
          model.apply({ type: 'lobby', game: id, info: r.game });
          render();
        } catch (e) {
          toast((e as Error).message, 'error');
        }
      },
    }, 'Take a seat'));
  }

  function renderActions() {
    clear(actionsEl);
    const s = model.state;
    const live = model.info?.status === 'live';
    const myTurn = model.isMyTurn(user.id) && s?.phase !== 'clean_up';
    const seat = mySeat();
    if (!live || seat === null || !s || s.phase === 'clean_up' || s.status === 'scoring') return;
    for (const b of model.ui.buttons(s, map)) {
      actionsEl.append(h('button', { id: b.id, disabled: !myTurn || busy, accesskey: b.key, onclick: () => act(b.input), title: b.title }, b.label));
    }
    const passable = model.ui.passAllowed?.(s) ?? true;
    actionsEl.append(h('button', { id: 'pass', disabled: !myTurn || busy || !passable, accesskey: 'p', onclick: () => act({ type: 'pass' }), title: model.ui.passTitle(s) }, 'Pass'));
    actionsEl.append(h('button', {
      id: 'undo', disabled: busy || Boolean(model.info?.undo), title: 'Ask the other players to let you take back your last move',
      onclick: async () => {
        try {
          await api.undo(id);
        } catch (e) {
          toast((e as Error).message, 'error');
        }
      },
    }, 'Undo'));
    if (model.ui.canResign !== false) actionsEl.append(h('button', {
      id: 'resign', class: 'danger', disabled: busy,
      onclick: () => {
        if (confirm('Resign this game? This cannot be undone.')) void act({ type: 'resign' });
      },
    }, 'Resign'));
    if (pending !== null) {
      actionsEl.append(h('button', { id: 'confirm-place', class: 'primary', onclick: () => { const n = pending; pending = null; if (n !== null) void act({ type: 'place', node: n }); } }, `Place at ${map.labels[pending]}`));
      actionsEl.append(h('button', { onclick: () => { pending = null; render(); } }, 'Cancel'));
    }
  }

  function renderPanel() {
    clear(panelEl);
    const s = model.state;
    const seat = mySeat();
    if (!s || seat === null) return;
    const panel = model.ui.panel?.(s, model.naming(), seat, (input) => void act(input));
    if (panel) panelEl.append(panel);
  }

  function renderScoring() {
    const s = model.state;
    const seat = mySeat();
    const names = model.naming();
    cleanupEl.hidden = false;
    clear(cleanupEl);
    const accepted = new Set(s?.accepted ?? []);
    cleanupEl.append(h('h3', {}, 'Dead stones'));
    const player = seat !== null && !s?.players[seat]?.resigned;
    cleanupEl.append(h('p', {}, player
      ? 'Click a group to mark it dead (or alive again). Accept when the marking is right; any change asks everyone again. Resume to play on if you disagree.'
      : 'The players are agreeing on dead stones.'));
    const dead = (s?.dead ?? []).map((n) => map.labels[n]);
    cleanupEl.append(h('p', { id: 'dead-list' }, `Marked dead: ${dead.join(', ') || 'nothing'}`));
    for (const p of s?.players ?? []) {
      if (p.resigned) continue;
      cleanupEl.append(h('div', { class: 'muted' }, `${names.player(p.player)}: ${accepted.has(p.player) ? 'accepted' : 'deciding…'}`));
    }
    if (player && seat !== null && !accepted.has(seat)) {
      cleanupEl.append(h('button', { id: 'accept-dead', class: 'primary', disabled: busy, onclick: () => act({ type: 'accept' }) }, 'Accept'));
      cleanupEl.append(h('button', { id: 'resume-play', disabled: busy, onclick: () => act({ type: 'resume' }) }, 'Resume play'));
    }
  }

  function renderCleanup() {
    const s = model.state;
    const seat = mySeat();
    if (s?.status === 'scoring' && model.info?.status === 'live') {
      renderScoring();
      return;
    }
    cleanupEl.hidden = s?.phase !== 'clean_up';
    if (cleanupEl.hidden || !s) return;
    clear(cleanupEl);
    const names = model.naming();
    const mine = seat !== null && (s.awaiting_cleanup ?? []).includes(seat);
    const ui = model.ui.cleanup ?? SURRENDER;
    cleanupEl.append(h('h3', {}, 'Clean-Up'));
    cleanupEl.append(h('p', {}, mine ? ui.intro : 'Waiting for the other players to choose.'));
    const waiting = new Set(s.awaiting_cleanup ?? []);
    for (const p of s.players) {
      const choice = ui.chosen(p) ?? (waiting.has(p.player) ? 'choosing…' : 'done');
      cleanupEl.append(h('div', { class: 'muted' }, `${names.player(p.player)}: `, choice));
    }
    if (mine) {
      cleanupEl.append(h('p', {}, `Selected: ${[...selected].map((n) => map.labels[n]).join(', ') || 'nothing'}`));
      cleanupEl.append(h('button', {
        id: 'surrender', class: 'primary', disabled: busy,
        onclick: async () => {
          await act(ui.input([...selected]));
          selected = new Set();
        },
      }, ui.submit(selected.size)));
    }
  }

  function renderUndo() {
    const request = model.info?.status === 'live' ? model.info.undo : null;
    undoBox.hidden = !request;
    clear(undoBox);
    if (!request) return;
    const names = model.naming();
    const seat = mySeat();
    const answer = (accept: boolean) => async () => {
      try {
        await api.undoAnswer(id, accept);
      } catch (e) {
        toast((e as Error).message, 'error');
      }
    };
    if (seat !== null && request.waiting.includes(seat)) {
      undoBox.append(
        h('p', {}, `${names.player(request.by)} asks to take back their last move.`),
        h('div', { class: 'row' },
          h('button', { id: 'undo-accept', class: 'primary', onclick: answer(true) }, 'Accept'),
          h('button', { id: 'undo-decline', onclick: answer(false) }, 'Decline')),
      );
    } else if (seat === request.by) {
      undoBox.append(h('p', { id: 'undo-waiting' }, `Undo asked: waiting for ${request.waiting.map((p) => names.player(p)).join(', ')}.`));
    } else {
      undoBox.append(h('p', {}, `${names.player(request.by)} asked to take back a move.`));
    }
  }

  /** Spectators are told so and get no play controls; nobody gets them once the game is over. */
  function renderRole() {
    const seat = mySeat();
    const live = model.info?.status === 'live';
    watchingEl.hidden = seat !== null || model.info?.status === 'open';
    // Placing is for play, not for the dead-stone phase or Clean-Up.
    const deciding = model.state?.status === 'scoring' || model.state?.phase === 'clean_up';
    placeForm.hidden = seat === null || !live || deciding;
  }

  function renderResult() {
    const o = model.state?.outcome ?? model.info?.outcome;
    resultEl.hidden = !o;
    banner.hidden = true;
    if (!o) return;
    clear(resultEl);
    const names = model.naming();
    const seat = mySeat();
    if (seat !== null) {
      const place = o.places?.[seat] ?? o.ranking.indexOf(seat) + 1;
      const shared = (o.places ?? []).filter((q) => q === place).length > 1;
      banner.textContent = place === 1 ? (shared ? 'A draw: you share first place.' : 'You won!') : `You lost: place ${place} of ${o.ranking.length}.`;
      banner.className = `banner ${place === 1 ? 'won' : 'lost'}`;
      banner.hidden = false;
    }
    // How each player's game ended, beside their score.
    const ended = (p: number): string => {
      const ps = model.state?.players[p];
      const out = ps?.status === 'resigned' || ps?.resigned === true;
      if (!out) return '';
      return o.reason === 'time' && o.ranking.at(-1) === p ? ' (timed out)' : ' (resigned)';
    };
    const rematchButton: HTMLElement | null =
      seat !== null
        ? h('button', {
            id: 'rematch', class: 'primary',
            onclick: async () => {
              try {
                const r = await api.rematch(id);
                if (r.invite) sessionStorage.setItem(`invite-${r.game.id}`, r.invite);
                location.hash = `#/game/${r.game.id}`;
              } catch (e) {
                toast((e as Error).message, 'error');
              }
            },
          }, 'Rematch')
        : null;
    resultEl.append(
      h('h3', {}, 'Final ranking'),
      h('table', { class: 'ranking', id: 'ranking' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Place'), h('th', {}, 'Player'), h('th', {}, 'Score'))),
        h('tbody', {}, ...o.ranking.map((p, k) => h('tr', {}, h('td', {}, String(o.places?.[p] ?? k + 1)), h('td', {}, swatch(model.state ? (model.ui.seatStyle?.(model.state, p) ?? p) : p, model.players), ' ', names.player(p), ended(p)), h('td', {}, String(o.scores[p]))))),
      ),
      ...([rematchButton, rematchOffer].filter((x) => x !== null) as HTMLElement[]),
      h('p', {}, `Ended by ${o.reason.replace('_', ' ')}. `,
        o.tie_broken ? 'Equal scores were ordered by turn position (the later first). ' : '',
        h('a', { href: `#/review/${id}`, id: 'review-link' }, 'Review the game')),
    );
  }

  function renderLog() {
    const lines = model.log;
    if (logEl.childElementCount > lines.length) clear(logEl);
    for (let i = logEl.childElementCount; i < lines.length; i++) logEl.append(h('li', {}, lines[i].text));
    logEl.scrollTop = logEl.scrollHeight;
  }

  function clockText(ms: number, periods: number | undefined): string {
    const secs = Math.max(0, Math.ceil(ms / 1000));
    const main = secs >= 60 ? `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}` : `${secs} s`;
    return periods ? `${main} +${periods}` : main;
  }

  /** Where the game stood at the last sound check. */
  let heard: SoundMoment | null = null;
  function soundMoment(): SoundMoment {
    const mine = model.isMyTurn(user.id);
    const c = model.clock;
    const left = mine && c && c.deadline_ms !== null ? Math.ceil(Math.max(0, c.deadline_ms - Date.now()) / 1000) : null;
    return { seq: model.seq, myTurn: mine, mySecondsLeft: left };
  }
  function renderSounds() {
    const now = soundMoment();
    if (heard && prefs.sound && model.info?.status === 'live') for (const k of soundsFor(heard, now)) play(k);
    heard = now;
  }

  function renderClock() {
    const c = model.clock;
    if (!c || c.deadline_ms === null || model.info?.status !== 'live') {
      clockEl.textContent = '';
      return;
    }
    // The server's deadline against our clock: a few hundred ms of skew at most.
    const left = Math.max(0, c.deadline_ms - Date.now());
    const secs = Math.ceil(left / 1000);
    clockEl.textContent = secs >= 60 ? `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}` : `${secs} s`;
    clockEl.classList.toggle('low', secs <= 5);
  }

  function render() {
    const s = model.state;
    // A two-click input lasts while the game waits for its second click.
    if (!s || !(model.ui.keepsPick?.(s) ?? false) || !model.isMyTurn(user.id)) picked = null;
    // The board first: a system's markers know the pick, which its status line may describe.
    drawBoard();
    renderStatus();
    renderJoin();
    renderPlayers();
    renderActions();
    renderPanel();
    renderUndo();
    renderRole();
    renderCleanup();
    renderResult();
    renderLog();
    renderClock();
    renderSounds();
    if (hover !== null) hoverEl.textContent = describeNode(hover);
  }

  /** The board alone (also on hover, for systems that mark something under the pointer). */
  function drawBoard() {
    const s = model.state;
    const seat = mySeat();
    const clean = s?.phase === 'clean_up' || s?.status === 'scoring';
    const shownSelected = new Set(s?.status === 'scoring' ? (s.dead ?? []) : selected);
    if (clean && s) {
      for (const p of s.players) for (const l of p.surrendered ?? []) {
        const i = map.labels.indexOf(l);
        if (i >= 0) shownSelected.add(i);
      }
    }
    board.render({
      players: model.players,
      board: s?.board ?? [],
      lastMove: model.lastMove,
      mySeat: seat,
      interactive: model.isMyTurn(user.id) && !busy,
      showLabels: prefs.labels,
      pending,
      decorations: s ? model.ui.decorate(s, map, { picked, selected: clean ? shownSelected : undefined, atari: prefs.atari, hover }) : undefined,
    });
  }

  const onMessage = (msg: ServerMessage) => {
    if ('game' in msg && msg.game !== id) return;
    if (msg.type === 'chat') {
      chatLog.append(h('li', {}, h('strong', {}, msg.from), ': ', msg.text));
      chatLog.scrollTop = chatLog.scrollHeight;
      return;
    }
    if (msg.type === 'rematch') {
      if (msg.from !== user.name) {
        const href = `#/game/${msg.rematch}${msg.invite ? `?invite=${msg.invite}` : ''}`;
        rematchOffer = h('p', { id: 'rematch-offer' }, `${msg.from} offers a rematch: `, h('a', { href }, 'take your seat'));
        render();
      }
      return;
    }
    if (msg.type === 'undo' && msg.note) toast(msg.note);
    if (msg.type === 'error' && msg.id === undefined) {
      toast(msg.error, 'error');
      return;
    }
    const r = model.apply(msg);
    if (r === 'gap') socket.resync(id);
    if (r === 'applied' && msg.type === 'update') refusal = null;
    if (model.state?.phase !== 'clean_up') selected = new Set();
    render();
  };
  const offMessage = socket.onMessage(onMessage);
  const offStatus = socket.onStatus((st) => {
    connection.textContent = st === 'open' ? '● connected' : st === 'connecting' ? '○ reconnecting…' : '○ offline';
    connection.className = `connection ${st}`;
  });
  socket.watch(id, () => model.seq);
  const chat = await api.chat(id).catch(() => []);
  for (const c of chat) chatLog.append(h('li', {}, h('strong', {}, c.from), ': ', c.text));
  const tick = setInterval(() => {
    renderClock();
    renderSounds();
  }, 250);
  render();

  const keys = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.ctrlKey || e.metaKey || e.altKey) return;
    const button = model.state && model.ui.buttons(model.state, map).find((b) => b.key === e.key);
    if (button && model.isMyTurn(user.id)) void act(button.input);
    else if (e.key === 'p' && model.isMyTurn(user.id)) void act({ type: 'pass' });
    else if (e.key === 'Escape' && pending !== null) {
      pending = null;
      render();
    } else if (e.key === 'Enter' && pending !== null) {
      const n = pending;
      pending = null;
      void act({ type: 'place', node: n });
    }
  };
  document.addEventListener('keydown', keys);

  return () => {
    clearInterval(tick);
    offMessage();
    offStatus();
    socket.unwatch(id);
    document.removeEventListener('keydown', keys);
    board.destroy();
  };
}

export function swatch(seat: number, players: number): SVGSVGElement {
  const st = playerStyle(seat, players);
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '-1 -1 2 2');
  svg.setAttribute('class', 'swatch');
  svg.setAttribute('aria-label', st.name);
  const c = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
  c.setAttribute('r', '0.9');
  c.setAttribute('fill', st.fill);
  c.setAttribute('stroke', st.stroke);
  c.setAttribute('stroke-width', '0.1');
  svg.append(c);
  return svg;
}
