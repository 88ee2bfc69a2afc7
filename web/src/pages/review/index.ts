// The review of a finished game: the board at any node of its tree, the move list with
// variations, the chat and the computer's marks, comments on the node in view, moves played on
// the board as new variations, the computer review, exports and "Analyse from here".

import { refKey, type NodeRef, type ReviewTree } from '../../analysis_types';
import { admitIfInvited, api } from '../../api';
import { playerStyle } from '../../colors';
import { clear, h, toast } from '../../dom';
import { displayName } from '../../model';
import { mountBoard } from '../../mount';
import { systemUi } from '../../systems';
import type { GameState, RecordedAction } from '../../types';
import { actionWords, type Naming } from '../../words';
import { swatch } from '../game/players';
import { eventLine } from '../game/event';
import { endedEarly } from '../game/result';
import { renderComments } from './comments';
import { computerPanel } from './computer';
import { renderMoveList } from './moves';
import { computerMarks } from './overlay';
import { loadTree } from './source';
import { chatByNode } from './timeline';
import { buildTree, START, step, type Tree } from './tree';
import { reviewKeys } from './keys';
import './review.css';

/** New comments and variations from others appear within this long. */
const POLL_MS = 4000;

export async function reviewPage(root: HTMLElement, id: number): Promise<() => void> {
  await admitIfInvited(id);
  const [map, info, first, chat] = await Promise.all([
    api.gameMap(id),
    api.game(id),
    loadTree(id),
    api.chat(id).then((c) => c.chat, () => []),
  ]);
  let data: ReviewTree = first;
  let tree: Tree = buildTree(data);
  const total = data.total;
  let current = `at:${total}`;
  let target = current;
  const cache = new Map<string, GameState>();
  // The computer panel may call back (its status fetched) while the board is still loading (a
  // 3-D board's module): `go` waits for the board, else it would touch it and `seq` before they
  // exist ("Cannot access ... before initialization"); the first `go` below draws everything.
  let mounted = false;
  const ui = systemUi(info.rules.system);
  const names: Naming = { player: (p) => playerStyle(p, info.players).name, label: (n) => map.labels[n] ?? `#${n}` };
  const words = (key: string) => {
    const n = tree.get(key);
    const a = n?.input ? ({ ...n.input, player: n.player ?? 0 } as RecordedAction) : null;
    return a ? (ui.reviewLine?.(a, names) ?? `${names.player(a.player)} ${actionWords(a)}`) : 'Start';
  };
  const seatName = (p: number) => {
    const seat = info.seats[p];
    return displayName(seat?.user) || (seat?.bot_level != null ? `bot, level ${seat.bot_level}` : '');
  };
  const scored = info.outcome !== null && !endedEarly(info.outcome);

  clear(root);
  const boardBox = h('div', { class: 'board-box', id: 'board' });
  const where = h('span', { id: 'where' });
  const what = h('p', { id: 'what', class: 'muted' });
  const counter = h('span', { id: 'move-number' });
  const players = h('div', { id: 'review-players' });
  const best = h('p', { id: 'best-move', class: 'muted' });
  const moveList = h('div', { id: 'moves', class: 'move-list', role: 'list', 'aria-label': 'Moves' });
  const commentBox = h('div', { class: 'card', id: 'comments' });
  const count = h('div', { id: 'review-count' });
  const ownership = h('input', { type: 'checkbox', id: 'show-ownership', checked: true });
  const analyseLink = h('a', { id: 'analyse-here', class: 'button' }, 'Analyse from here');
  const btn = (label: string, title: string, how: Parameters<typeof step>[2]) =>
    h('button', { type: 'button', title, onclick: () => void go(step(tree, target, how)) }, label);
  const computer = computerPanel(id, info.players, (at) => void go(`at:${at}`), () => void go(target, true));
  const hasSgf = ui.hasSgf(info.players);
  root.append(
    h('div', { class: 'game-page review-page' },
      h('div', { class: 'board-col' }, boardBox),
      h('aside', { class: 'side' },
        h('div', { class: 'card' },
          h('h2', {}, `Review of game #${id}`),
          h('p', {}, `${map.name}, ${info.players} players, ${ui.title} rules`),
          eventLine(info.event),
          h('div', { class: 'row review-nav' },
            btn('◀◀', 'First (Home)', 'home'),
            btn('◀', 'Previous (←)', 'prev'),
            btn('▶', 'Next (→)', 'next'),
            btn('▶▶', 'End of the line (End)', 'end'),
            where,
          ),
          counter,
          what,
          best,
          players,
          moveList,
          data.may_edit ? h('p', { class: 'muted small' }, 'Play on the board to try a variation; ↑/↓ switch between branches.') : null,
        ),
        commentBox,
        computer.element,
        h('div', { class: 'card' },
          h('label', {}, ownership, ' Show the computer\'s ownership'),
          h('p', {},
            analyseLink, ' ',
            h('a', { href: `/api/games/${id}/record`, download: `gobeyond-${id}.json`, id: 'export-json' }, 'Export JSON record'),
            hasSgf ? ' · ' : null,
            hasSgf ? h('a', { href: `/api/games/${id}/sgf`, download: `gobeyond-${id}.sgf`, id: 'export-sgf' }, 'Export SGF') : null,
          ),
        ),
        info.outcome
          ? h('div', { class: 'card' }, h('h3', {}, 'Final ranking'),
              info.result_text ? h('p', { class: 'result-text', id: 'result-text' }, `Result: ${info.result_text}`) : null,
              h('ol', { id: 'ranking' }, ...info.outcome.ranking.map((p) =>
                h('li', {}, swatch(p, info.players), ` ${playerStyle(p, info.players).name} (${seatName(p)})`,
                  scored ? `: ${info.outcome?.scores[p]}` : ''))),
              count)
          : null,
      ),
    ),
  );
  ownership.addEventListener('change', () => void go(target, true));
  const board = await mountBoard(boardBox, map, (node) => void play(node), () => {});

  async function stateOf(key: string): Promise<GameState> {
    const hit = cache.get(key);
    if (hit) return hit;
    const ref = tree.get(key)?.ref ?? { at: 0 };
    const r = await api.stateAtNode(id, ref);
    cache.set(key, r.state);
    return r.state;
  }

  let seq = 0;
  /** Shows node `key`. Quick key presses add up from the node asked for last (`target`), not
   *  from the one shown, which lags while states load. */
  async function go(key: string, redraw = false) {
    if (!mounted) return;
    if (!tree.has(key)) key = START;
    if (key === target && key === current && !redraw) return;
    target = key;
    const mine = ++seq;
    let state: GameState;
    try {
      state = await stateOf(key);
    } catch (e) {
      toast((e as Error).message, 'error');
      return;
    }
    const n = tree.get(key);
    const mainAt = n?.main ? n.depth : null;
    const last = ui.moveNumber ? await stateOf(`at:${total}`).catch(() => null) : null;
    const review = mainAt !== null ? await computer.position(mainAt).catch(() => null) : null;
    if (mine !== seq || !n) return;
    current = key;
    where.textContent = n.main ? `${n.depth} / ${total}` : `${n.depth} / ${total} · variation`;
    what.textContent = words(key);
    counter.textContent = ui.moveNumber && last ? `Move ${ui.moveNumber(state)} of ${ui.moveNumber(last)}` : '';
    clear(count);
    const table = key === `at:${total}` ? (ui.countTable?.(state, names) ?? null) : null;
    if (table) count.append(table);
    clear(players);
    for (const p of state.players) {
      players.append(h('div', {}, swatch(p.player, info.players), ` ${displayName(p.name) || playerStyle(p.player, info.players).name}: `, ui.standing(p)));
    }
    best.textContent = bestWords(review);
    const action = n.input ? ({ ...n.input, player: n.player ?? 0 } as RecordedAction) : null;
    board.render({
      players: info.players,
      board: state.board,
      decorations: computerMarks(ui.decorate(state, map, { picked: null, atari: false, hover: null }), state.board, review, ownership.checked, bestTitle(review)),
      lastMove: action ? ui.lastMove(action, map) : null,
      mySeat: null,
      interactive: data.may_edit && state.to_move !== null,
    });
    analyseLink.setAttribute('href', `#/analyse?game=${id}&${'at' in n.ref ? `at=${n.ref.at}` : `var=${n.ref.var}`}`);
    computer.show(mainAt);
    lists();
  }

  /** The computer's best action in words, and its value for the mover. */
  function bestOf(review: Awaited<ReturnType<typeof computer.position>>): { said: string; value: string } | null {
    const b = review?.best[0];
    if (!review || !b || review.to_move === null) return null;
    const a = { ...b.input, player: review.to_move } as RecordedAction;
    const said = ui.reviewLine?.(a, names) ?? `${names.player(a.player)} ${actionWords(a)}`;
    return { said, value: `${Math.round(b.value * 100)}% for ${names.player(review.to_move)}` };
  }

  function bestWords(review: Awaited<ReturnType<typeof computer.position>>): string {
    const b = bestOf(review);
    return b ? `Computer's choice: ${b.said} (${b.value})` : '';
  }

  /** The best-move ring's tooltip. */
  function bestTitle(review: Awaited<ReturnType<typeof computer.position>>): string {
    const b = bestOf(review);
    return b ? `best move: ${b.said}, value ${b.value}` : '';
  }

  function lists() {
    const status = computer.status();
    renderMoveList(moveList, {
      tree,
      current,
      words,
      chat: chatByNode(data.moves, chat),
      judged: status?.moves ?? [],
      comments: new Set(data.comments.map((c) => refKey(c.node))),
      go: (k) => void go(k),
    });
    const n = tree.get(current);
    renderComments(commentBox, {
      game: id,
      node: n?.ref ?? { at: 0 },
      key: current,
      all: data.comments,
      mayWrite: data.may_edit,
      whyNot: data.why_not,
      added: () => void refresh(),
    });
  }

  /** A move on the board from the node in view: a new variation (or the existing one). */
  async function play(node: number) {
    if (!data.may_edit) return;
    const n = tree.get(current);
    if (!n) return;
    const state = await stateOf(current);
    if (state.to_move === null) {
      toast('Nobody moves in this position: the game is over here, or several seats decide at once.');
      return;
    }
    const special = ui.clickInput?.(state, node, state.to_move, null);
    if (special?.say) toast(special.say);
    const input = special ? special.input : { type: 'place', node };
    if (!input) return;
    try {
      const made = await api.addVariation(id, n.ref as NodeRef, input, state.to_move);
      await refresh();
      cache.set(`var:${made.node.id}`, made.state);
      await go(`var:${made.node.id}`);
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  }

  async function refresh() {
    try {
      data = await loadTree(id);
      tree = buildTree(data);
      lists();
    } catch {
      /* the next poll tries again */
    }
  }

  const detachKeys = reviewKeys((how) => void go(step(tree, target, how)));
  const poll = window.setInterval(() => {
    if (data.may_edit || data.comments.length) void refresh();
  }, POLL_MS);
  mounted = true;
  await go(current, true);
  return () => {
    window.clearInterval(poll);
    computer.stop();
    detachKeys();
    board.destroy();
  };
}
