// The free board ("Analyse from here"): a position of a game (main line or variation) where any
// legal move of the seat to play can be tried, checked by the server (POST /api/analyse, nothing
// stored), with a step back.

import type { Analysed, GameRecord } from '../analysis_types';
import { refKey } from '../analysis_types';
import { api } from '../api';
import { playerStyle } from '../colors';
import { clear, h, toast } from '../dom';
import { mountBoard } from '../mount';
import { systemUi } from '../systems';
import type { RecordedAction } from '../types';
import { actionWords, type Naming } from '../words';
import { loadTree } from './review/source';
import { buildTree, path } from './review/tree';
import './review/review.css';

/** `#/analyse?game=ID&at=K` or `&var=ID`. */
export async function analysePage(root: HTMLElement, query: URLSearchParams): Promise<() => void> {
  const game = Number(query.get('game'));
  if (!Number.isInteger(game) || game <= 0) throw new Error('Open the free board from a game\'s review ("Analyse from here").');
  const [info, record] = await Promise.all([api.game(game), startRecord(game, query)]);
  const ui = systemUi(info.rules.system);
  let shown: Analysed = await api.analyse({ record, with_map: true });
  const map = shown.map ?? (await api.gameMap(game));
  const history: Analysed[] = [];
  const names: Naming = { player: (p) => playerStyle(p, info.players).name, label: (n) => map.labels[n] ?? `#${n}` };

  clear(root);
  const boardBox = h('div', { class: 'board-box', id: 'board' });
  const where = h('p', { id: 'analyse-where' });
  const what = h('p', { id: 'analyse-what', class: 'muted' });
  const buttons = h('div', { class: 'row', id: 'analyse-buttons' });
  root.append(
    h('div', { class: 'game-page analyse-page' },
      h('div', { class: 'board-col' }, boardBox),
      h('aside', { class: 'side' },
        h('div', { class: 'card' },
          h('h2', {}, 'Free board'),
          h('p', {}, `From game #${game}: ${map.name}, ${info.players} players, ${ui.title} rules. Nothing here is stored.`),
          where,
          what,
          buttons,
          h('p', {}, h('a', { href: `#/review/${game}`, id: 'back-to-review' }, 'Back to the review')),
        ),
      ),
    ),
  );
  const board = await mountBoard(boardBox, map, (node) => void pick(node), () => {});

  async function send(input: unknown) {
    const seat = shown.state.to_move;
    if (seat === null) {
      toast('Nobody is to play in this position.');
      return;
    }
    try {
      // Without events: JavaScript writes a score of 81.0 back as 81, which a replay's check of
      // the events would call a difference; they follow from the actions anyway.
      const next = await api.analyse({ record: { ...shown.record, events: undefined }, input, player: seat });
      history.push(shown);
      shown = next;
      draw();
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  }

  function pick(node: number) {
    const s = shown.state;
    if (s.to_move === null) return;
    const special = ui.clickInput?.(s, node, s.to_move, null);
    if (special?.say) toast(special.say);
    const input = special ? special.input : { type: 'place', node };
    if (input) void send(input);
  }

  function draw() {
    const s = shown.state;
    const actions = shown.record.actions;
    const last = actions.at(-1) as unknown as RecordedAction | undefined;
    where.textContent = `${shown.total} actions · ${s.to_move !== null ? `${names.player(s.to_move)} to play` : 'nobody to play'}`;
    what.textContent = last ? (ui.reviewLine?.(last, names) ?? `${names.player(last.player)} ${actionWords(last)}`) : 'Start';
    clear(buttons);
    buttons.append(h('button', { type: 'button', id: 'analyse-back', disabled: !history.length, onclick: back }, 'Take back'));
    if (s.to_move !== null) {
      for (const b of ui.buttons(s, map)) buttons.append(h('button', { type: 'button', id: `analyse-${b.id}`, title: b.title, onclick: () => void send(b.input) }, b.label));
      buttons.append(h('button', { type: 'button', id: 'analyse-pass', title: ui.passTitle(s), onclick: () => void send({ type: 'pass' }) }, 'Pass'));
    }
    board.render({
      players: info.players,
      board: s.board,
      decorations: ui.decorate(s, map, { picked: null, atari: false, hover: null }),
      lastMove: last ? ui.lastMove(last, map) : null,
      mySeat: null,
      interactive: s.to_move !== null,
    });
  }

  function back() {
    const prev = history.pop();
    if (!prev) return;
    shown = prev;
    draw();
  }

  draw();
  return () => board.destroy();
}

/** The game's record cut at the position asked for: the main line's first `at` actions, or the
 *  main line up to a variation and the variation's moves after it. */
async function startRecord(game: number, query: URLSearchParams): Promise<GameRecord> {
  const full = await api.record(game);
  // The events follow from the actions (docs/formats.md) and would no longer match the cut
  // record; the tree stays with the game.
  const base = { ...full, events: undefined, variations: undefined, comments: undefined };
  const variation = query.get('var');
  if (variation === null) {
    const at = Math.max(0, Math.min(full.actions.length, Number(query.get('at') ?? full.actions.length) || 0));
    return { ...base, actions: full.actions.slice(0, at) };
  }
  const data = await loadTree(game);
  const tree = buildTree(data);
  const key = refKey({ var: Number(variation) });
  if (!tree.has(key)) throw new Error(`This game has no variation ${variation}.`);
  const nodes = path(tree, key).map((k) => tree.get(k)).filter((n) => n && n.input);
  const mainDepth = nodes.filter((n) => n?.main).length;
  const extra = nodes.filter((n) => n && !n.main).map((n) => ({ ...(n?.input as object), player: n?.player ?? 0 }));
  return { ...base, actions: [...full.actions.slice(0, mainDepth), ...extra] };
}
