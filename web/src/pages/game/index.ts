// The game page: board, players, clock, actions, Clean-Up, event log, chat. The server is the
// authority: the page shows what the last sync or update said and sends actions; the board only
// changes when the server's update arrives. This file holds the socket, the model and the render
// loop; each panel is a module of this folder drawing from the shared `GameContext`.

import { admitIfInvited, api } from '../../api';
import { clear, h, toast } from '../../dom';
import { GameModel } from '../../model';
import { mountBoard } from '../../mount';
import { session } from '../../session';
import { ActionError, type Socket } from '../../socket';
import { systemUi } from '../../systems';
import type { GameInfo, ServerMessage } from '../../types';
import { renderActions, renderPanel } from './actions';
import { describeNode, drawBoard, hovered, pick, placeByLabel } from './board';
import { decision, renderDecision } from './decision';
import { timeControlText } from '../../time';
import { renderClock, renderSounds } from './clock';
import { type GameContext, loadPrefs, savePrefs } from './context';
import { elements } from './elements';
import { renderJoin } from './invite';
import { disarmIfMoved, onKey, toggleKeyHelp } from './keys';
import { chatDeleted, chatLine, loadChat, refused, renderChatForm, renderLog, sendChat } from './log';
import { openReport } from '../../moderation/report';
import { renderPlayers } from './players';
import { renderResult } from './result';
import { renderRole, renderStatus } from './status';
import { renderUndo, undoNote } from './undo';

/** The rules in one line: the system, and the settings players ask about first. */
function rulesLine(info: GameInfo): string {
  const ui = systemUi(info.rules.system);
  const clock = info.time.kind === 'none' ? [] : [timeControlText(info.time)];
  return [ui.title, info.rated ? 'rated' : 'unrated', ...ui.rulesLine(info.rules), ...clock].join(' · ');
}

export async function gamePage(root: HTMLElement, id: number, socket: Socket): Promise<() => void> {
  const user = await session.user();
  await admitIfInvited(id);
  const [map, info] = await Promise.all([api.gameMap(id), api.game(id)]);
  const model = new GameModel(id, map);
  model.apply({ type: 'lobby', game: id, info });
  const prefs = loadPrefs();
  const el = elements(id, map, info, prefs, rulesLine(info));
  clear(root);
  root.append(el.page);

  // Boards in space turn to the last move on request (it may be on the far side); the flat
  // view shows every node, so the button goes with the 3-D view.
  const showLast = h('button', {
    id: 'show-last', type: 'button', title: 'Turn the board to the last move', hidden: true,
    onclick: () => {
      if (model.lastMove === null) toast('No move yet.');
      else if (ctx.board.focus(model.lastMove)) el.hover.textContent = `Last move: ${describeNode(ctx, model.lastMove)}`;
    },
  }, 'Show last move');
  // After wheel zooms and drags, one click back to the first view.
  const resetView = h('button', {
    id: 'reset-view', type: 'button', title: 'Back to the first view: its angle and zoom', hidden: true,
    onclick: () => ctx.board.resetView(),
  }, 'Reset view');
  const board = await mountBoard(el.board, map, (node) => pick(ctx, node), (node) => hovered(ctx, node), {
    onView: (kind) => {
      showLast.hidden = kind !== '3d';
      resetView.hidden = kind !== '3d';
    },
    keyboard: {
      describe: (node) => {
        const words = describeNode(ctx, node);
        return `${words === map.labels[node] ? `${words} · empty` : words}${ctx.model.lastMove === node ? ' · the last move' : ''}`;
      },
    },
  });
  el.board.after(h('div', { class: 'row view-buttons' }, showLast, resetView));

  const ctx: GameContext = {
    id, user, map, model, socket, prefs, el, board,
    pending: null, hover: null, selected: new Set(), picked: null, busy: false, refusal: null,
    rematchOffer: null, creatorInvite: undefined, heard: null,
    mayChat: false, chatChannel: null, chatSentAt: null, passArmed: false, passArmedAt: 0,
    seat: () => model.seatOf(user.id),
    myTurn: () => model.isMyTurn(user.id),
    act: (action) => act(ctx, action),
    render: () => render(ctx),
  };
  wireForms(ctx);
  // A clicked button gives its focus back: a key pressed later (space, Enter) must not press it
  // again. Keyboard presses (detail 0) keep the focus where the player put it.
  el.page.addEventListener('click', (e) => {
    const button = (e.target as Element | null)?.closest?.('button');
    if (button && e.detail > 0) button.blur();
  });
  el.keysButton.addEventListener('click', () => toggleKeyHelp(ctx));
  el.reportButton.addEventListener('click', () => reportGame(ctx));

  const offMessage = socket.onMessage((msg) => onMessage(ctx, msg));
  const offStatus = socket.onStatus((st) => {
    el.connection.textContent = st === 'open' ? '● connected' : st === 'connecting' ? '○ reconnecting…' : '○ offline';
    el.connection.className = `connection ${st}`;
  });
  socket.watch(id, () => model.seq);
  await loadChat(ctx);
  const tick = setInterval(() => {
    renderClock(ctx);
    renderSounds(ctx);
  }, 250);
  render(ctx);

  const keys = (e: KeyboardEvent) => onKey(ctx, e);
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

/** The preferences' boxes, the "place at" field and the chat field. */
function wireForms(ctx: GameContext) {
  const { el, prefs } = ctx;
  const save = () => {
    prefs.confirm = el.prefs.confirm.checked;
    prefs.atari = el.prefs.atari.checked;
    prefs.labels = el.prefs.labels.checked;
    prefs.sound = el.prefs.sound.checked;
    savePrefs(prefs);
    ctx.pending = null;
    render(ctx);
  };
  for (const box of Object.values(el.prefs)) box.addEventListener('change', save);
  el.placeForm.addEventListener('submit', (e) => {
    e.preventDefault();
    placeByLabel(ctx);
  });
  el.chatForm.addEventListener('submit', (e) => {
    e.preventDefault();
    sendChat(ctx);
  });
}

async function act(ctx: GameContext, action: unknown) {
  if (ctx.busy) return;
  ctx.busy = true;
  ctx.refusal = null;
  render(ctx);
  try {
    await ctx.socket.act(ctx.id, action, ctx.model.seq);
  } catch (e) {
    const code = e instanceof ActionError ? e.code : null;
    if (code === 'stale' || code === 'unknown') {
      // The game moved on (or may have): what it holds now decides, not this click.
      ctx.socket.resync(ctx.id);
      toast('The game moved on: here it is now.', 'info');
    } else {
      ctx.refusal = (e as Error).message;
      toast(`Refused: ${ctx.refusal}`, 'error');
    }
  } finally {
    ctx.busy = false;
    render(ctx);
  }
}

/** Reports the game, naming one of the other people seated (cheating is what a game's report
 *  is most often about). */
function reportGame(ctx: GameContext) {
  const others = (ctx.model.info?.seats ?? [])
    .filter((s) => s.user !== null && s.user !== ctx.user.name && s.bot_level === null)
    .map((s) => s.user as string);
  openReport({ game: ctx.id, players: [...new Set(others)], reason: others.length ? 'cheating' : 'other' });
}

function render(ctx: GameContext) {
  const s = ctx.model.state;
  disarmIfMoved(ctx);
  // A two-click input lasts while the game waits for its second click.
  if (!s || !(ctx.model.ui.keepsPick?.(s) ?? false) || !ctx.myTurn()) ctx.picked = null;
  // The board first: a system's marks know the pick, which its status line may describe.
  drawBoard(ctx);
  renderStatus(ctx);
  renderJoin(ctx);
  renderPlayers(ctx);
  renderActions(ctx);
  renderPanel(ctx);
  renderUndo(ctx);
  renderRole(ctx);
  renderDecision(ctx);
  renderResult(ctx);
  renderLog(ctx);
  renderChatForm(ctx);
  // Game keys are the players': spectators get no list of them.
  ctx.el.keysButton.hidden = ctx.seat() === null;
  renderClock(ctx);
  renderSounds(ctx);
  if (ctx.hover !== null) ctx.el.hover.textContent = describeNode(ctx, ctx.hover);
}

function onMessage(ctx: GameContext, msg: ServerMessage) {
  const { model, user } = ctx;
  if ('game' in msg && msg.game !== ctx.id) return;
  if (msg.type === 'chat') {
    chatLine(ctx, msg);
    return;
  }
  if (msg.type === 'chat_deleted') {
    chatDeleted(ctx, msg.id);
    return;
  }
  if (msg.type === 'rematch') {
    if (msg.from !== user.name) {
      const href = `#/game/${msg.rematch}${msg.invite ? `?invite=${msg.invite}` : ''}`;
      // The seats are kept for the players: a spectator is told without the invitation.
      ctx.rematchOffer = ctx.seat() !== null
        ? h('p', { id: 'rematch-offer' }, `${msg.from} offers a rematch: `, h('a', { href }, 'take your seat'))
        : h('p', { id: 'rematch-offer' }, `${msg.from} started a rematch: `, h('a', { href }, 'watch it'));
      render(ctx);
    }
    return;
  }
  if (msg.type === 'undo' && msg.note) toast(undoNote(msg.note, model.naming()));
  // Refusals without a request id (chat lines, the game itself): the server sends `null`.
  if (msg.type === 'error' && (msg.id === null || msg.id === undefined)) {
    refused(ctx, msg.error);
    return;
  }
  const r = model.apply(msg);
  if (r === 'gap') ctx.socket.resync(ctx.id);
  if (r === 'applied' && msg.type === 'update') ctx.refusal = null;
  if (!decision(ctx)) ctx.selected = new Set();
  render(ctx);
}

