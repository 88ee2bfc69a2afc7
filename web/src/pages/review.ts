// Review of a game: step through every action (buttons, slider, arrow keys), final ranking, export.

import { admitIfInvited, api } from '../api';
import { clear, h, toast } from '../dom';
import { displayName } from '../model';
import { mountBoard } from '../mount';
import type { GameState, RecordedAction } from '../types';
import { swatch } from './game/players';
import { playerStyle } from '../colors';
import { systemUi } from '../systems';
import { actionWords } from '../words';
import type { Naming } from '../words';
import { endedEarly } from './game/result';

export async function reviewPage(root: HTMLElement, id: number): Promise<() => void> {
  await admitIfInvited(id);
  const [map, info, first] = await Promise.all([api.gameMap(id), api.game(id), api.stateAt(id, 0)]);
  const total = first.total;
  const cache = new Map<number, { state: GameState; action: RecordedAction | null }>();
  cache.set(0, { state: first.state, action: null });
  let at = total;

  clear(root);
  const boardBox = h('div', { class: 'board-box', id: 'board' });
  const slider = h('input', { type: 'range', min: 0, max: total, value: total, id: 'step', 'aria-label': 'Move number' });
  const where = h('span', { id: 'where' });
  const what = h('p', { id: 'what', class: 'muted' });
  const players = h('div', { id: 'review-players' });
  const btn = (label: string, title: string, to: () => number) =>
    h('button', { title, onclick: () => void go(to()) }, label);
  const seatName = (p: number) => {
    const seat = info.seats[p];
    return displayName(seat?.user) || (seat?.bot_level != null ? `bot, level ${seat.bot_level}` : '');
  };
  const ui = systemUi(info.rules.system);
  const hasSgf = ui.hasSgf(info.players);
  // The review names players by colour ("White E4").
  const names: Naming = { player: (p) => playerStyle(p, info.players).name, label: (n) => map.labels[n] ?? `#${n}` };
  const counter = h('span', { id: 'move-number' });
  const count = h('div', { id: 'review-count' });
  // A resignation or a time-out decides the game: the scores of that moment mean nothing.
  const scored = info.outcome !== null && !endedEarly(info.outcome);
  root.append(
    h('div', { class: 'game-page' },
      h('div', { class: 'board-col' }, boardBox),
      h('aside', { class: 'side' },
        h('div', { class: 'card' },
          h('h2', {}, `Review of game #${id}`),
          h('p', {}, `${map.name}, ${info.players} players, ${ui.title} rules`),
          h('div', { class: 'row' },
            btn('◀◀', 'First (Home)', () => 0),
            btn('◀', 'Previous (←)', () => at - 1),
            btn('▶', 'Next (→)', () => at + 1),
            btn('▶▶', 'Last (End)', () => total),
            where,
          ),
          counter,
          slider,
          what,
          players,
          h('p', {},
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
  const board = await mountBoard(boardBox, map, () => {}, () => {});

  async function load(step: number) {
    const hit = cache.get(step);
    if (hit) return hit;
    const r = await api.stateAt(id, step);
    const v = { state: r.state, action: r.action as RecordedAction | null };
    cache.set(step, v);
    return v;
  }

  let seq = 0;
  /** The step the user asked for last: quick key presses add up from it, not from the step
   *  shown (which lags while states load; twelve quick presses once advanced four moves). */
  let target = total;
  async function go(step: number) {
    step = Math.max(0, Math.min(total, step));
    target = step;
    const mine = ++seq;
    let v;
    try {
      v = await load(step);
    } catch (e) {
      toast((e as Error).message, 'error');
      return;
    }
    if (mine !== seq) return;
    at = step;
    slider.value = String(step);
    where.textContent = `${step} / ${total}`;
    const a = v.action;
    what.textContent = a ? (ui.reviewLine?.(a, names) ?? `${names.player(a.player)} ${actionWords(a)}`) : 'Start';
    // Moves as the system's players count them (classic Go: not the dead-stone marking).
    const last = ui.moveNumber && (await load(total).catch(() => null));
    if (mine !== seq) return;
    counter.textContent = ui.moveNumber && last ? `Move ${ui.moveNumber(v.state)} of ${ui.moveNumber(last.state)}` : '';
    clear(count);
    const table = step === total ? (ui.countTable?.(v.state, names) ?? null) : null;
    if (table) count.append(table);
    clear(players);
    for (const p of v.state.players) {
      players.append(h('div', {}, swatch(p.player, info.players), ` ${displayName(p.name) || playerStyle(p.player, info.players).name}: `,
        ui.standing(p)));
    }
    board.render({
      players: info.players,
      board: v.state.board,
      decorations: ui.decorate(v.state, map, { picked: null, atari: false, hover: null }),
      lastMove: a ? ui.lastMove(a, map) : null,
      mySeat: null,
      interactive: false,
    });
  }
  slider.addEventListener('input', () => void go(Number(slider.value)));
  const keys = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement && e.target !== slider) return;
    if (e.key === 'ArrowLeft') void go(target - 1);
    else if (e.key === 'ArrowRight') void go(target + 1);
    else if (e.key === 'Home') void go(0);
    else if (e.key === 'End') void go(total);
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', keys);
  await go(total);
  return () => {
    document.removeEventListener('keydown', keys);
    board.destroy();
  };
}
