// The computer's review: the button that asks for it (with its budget), progress while it runs,
// the graph of each seat's value over the game, and for the position in view its best move and
// the ownership of the nodes (drawn on the board by the page).

import type { PositionReview, ReviewStatus } from '../../analysis_types';
import { ApiError, api } from '../../api';
import { playerStyle } from '../../colors';
import { clear, h, toast } from '../../dom';
import { positionAt, valueLines } from './graph_geometry';
import { markCounts, MARK_SYMBOL } from './marks';

const SVG = 'http://www.w3.org/2000/svg';
const BOX = { width: 300, height: 100 };
const BUDGETS = [50, 200, 1000, 5000];

export interface ComputerPanel {
  element: HTMLElement;
  status(): ReviewStatus | null;
  /** The review of main-line position `at`, with ownership (fetched once). */
  position(at: number): Promise<PositionReview | null>;
  /** Draws the cursor at main-line position `at` (null in a variation). */
  show(at: number | null): void;
  stop(): void;
}

export function computerPanel(game: number, seats: number, go: (at: number) => void, changed: () => void): ComputerPanel {
  let status: ReviewStatus | null = null;
  let cursor: number | null = null;
  let timer: number | undefined;
  let stopped = false;
  const full = new Map<number, PositionReview | null>();
  const budget = h('select', { id: 'review-playouts', 'aria-label': 'Playouts per position' },
    ...BUDGETS.map((b) => h('option', { value: b, selected: b === 200 }, `${b} playouts`)));
  const ask = h('button', { type: 'button', id: 'review-request', onclick: () => void request() }, 'Review with the computer');
  const progress = h('p', { id: 'review-progress', class: 'muted' });
  const graph = h('div', { id: 'value-graph-box' });
  const summary = h('div', { id: 'review-summary' });
  const element = h('div', { class: 'card', id: 'computer' }, h('h3', {}, 'Computer review'), h('div', { class: 'row' }, budget, ask), progress, graph, summary);

  async function request() {
    try {
      status = await api.requestReview(game, Number(budget.value));
      full.clear();
      draw();
      poll();
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  }

  function poll() {
    window.clearTimeout(timer);
    if (stopped || !status || (status.state !== 'queued' && status.state !== 'running')) return;
    timer = window.setTimeout(async () => {
      try {
        status = await api.review(game, status?.playouts);
      } catch {
        /* try again on the next tick */
      }
      draw();
      changed();
      poll();
    }, 1500);
  }

  function draw() {
    clear(progress);
    clear(graph);
    clear(summary);
    if (!status || status.state === 'none') {
      progress.textContent = 'The computer has not reviewed this game yet.';
      return;
    }
    const words: Record<ReviewStatus['state'], string> = {
      none: '',
      queued: `Waiting to start${status.queue_position ? ` (${status.queue_position} ahead)` : ''}`,
      running: 'Reviewing',
      done: 'Reviewed',
      failed: `The review failed: ${status.error ?? 'unknown error'}`,
    };
    progress.textContent = `${words[status.state]} — ${status.done} / ${status.total} positions at ${status.playouts} playouts`;
    progress.dataset.state = status.state;
    if (status.positions.length) graph.append(valueGraph(status, seats, cursor, go));
    const counts = markCounts(status.moves, seats);
    summary.append(
      h('ul', { class: 'mark-summary' }, ...counts.map((c, seat) =>
        h('li', {}, h('span', { class: 'seat-key', style: `background: ${lineColour(seat, seats)}` }), ` ${playerStyle(seat, seats).name}: `,
          `${c.inaccuracy} ${MARK_SYMBOL.inaccuracy} · ${c.mistake} ${MARK_SYMBOL.mistake} · ${c.blunder} ${MARK_SYMBOL.blunder}`))),
    );
  }

  void api.review(game).then(
    (s) => {
      status = s;
      draw();
      changed();
      poll();
    },
    (e) => {
      // A server without computer reviews: the panel says so and offers nothing.
      element.hidden = e instanceof ApiError && e.status === 404;
      progress.textContent = (e as Error).message;
    },
  );

  return {
    element,
    status: () => status,
    async position(at) {
      if (!status?.positions.some((p) => p.at === at)) return null;
      if (!full.has(at)) full.set(at, await api.reviewPosition(game, at, status.playouts).catch(() => null));
      return full.get(at) ?? null;
    },
    show(at) {
      cursor = at;
      if (status) draw();
    },
    stop() {
      stopped = true;
      window.clearTimeout(timer);
    },
  };
}

/** The seat's line colour: Black follows the text colour (dark mode), White is grey. */
export function lineColour(seat: number, seats: number): string {
  const s = playerStyle(seat, seats);
  if (s.name === 'Black') return 'currentColor';
  if (s.name === 'White') return '#9a9a9a';
  return s.fill;
}

function valueGraph(status: ReviewStatus, seats: number, cursor: number | null, go: (at: number) => void): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('id', 'value-graph');
  svg.setAttribute('viewBox', `0 0 ${BOX.width} ${BOX.height}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'Each seat\'s chance to win over the game; click to go to a move');
  const el = (tag: string, attrs: Record<string, string | number>) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    svg.append(e);
    return e;
  };
  el('line', { x1: 0, x2: BOX.width, y1: BOX.height / 2, y2: BOX.height / 2, class: 'graph-mid' });
  valueLines(status.positions, seats, status.total - 1, BOX).forEach((points, seat) => {
    el('polyline', { points, class: 'seat-line', 'data-seat': seat, stroke: lineColour(seat, seats), 'stroke-dasharray': playerStyle(seat, seats).name === 'White' ? '4 2' : '' });
  });
  if (cursor !== null && status.total > 1) {
    const x = (cursor / (status.total - 1)) * BOX.width;
    el('line', { x1: x, x2: x, y1: 0, y2: BOX.height, class: 'graph-cursor' });
  }
  svg.addEventListener('click', (e) => {
    const r = svg.getBoundingClientRect();
    go(positionAt(((e.clientX - r.left) / r.width) * BOX.width, status.total - 1, BOX.width));
  });
  return svg;
}
