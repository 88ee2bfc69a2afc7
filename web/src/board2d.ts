// The flat board: SVG, sharp at any size. Elements are made once per map; a render only sets
// attributes, so a 4096-node map redraws in a few milliseconds.

import { playerStyle } from './colors';
import type { Decorations, NodeDecoration, NodeRing, StoneDecoration } from './decorations';
import { type FlatLayout, type FlatMode, flatLayout } from './layout';
import type { MapView } from './types';

const SVG = 'http://www.w3.org/2000/svg';

export interface BoardView {
  players: number;
  board: (number | null)[];
  lastMove: number | null;
  /** The viewer's own seat: its stones get a highlight ring. */
  mySeat: number | null;
  /** Whether clicks place (the viewer may act). */
  interactive: boolean;
  /** Nodes that are candidates awaiting confirmation. */
  pending?: number | null;
  /** Node names on the board (maps without side coordinates); shown unless false. */
  showLabels?: boolean;
  /** What the rule system marks, drawn as it comes. */
  decorations?: Decorations;
}

export interface Board {
  readonly element: Element;
  render(view: BoardView): void;
  /** Turns the view to a node (boards in space). */
  focus?(node: number): void;
  /** Back to the first view: its angle and its zoom (boards in space). */
  resetView?(): void;
  /** Where a node is on the screen now (`null`: hidden, on the far side of a body). */
  screenPosition?(node: number): { x: number; y: number } | null;
  destroy(): void;
}

const NO_STONES = new Map<number, StoneDecoration>();
const NO_NODES = new Map<number, NodeDecoration>();

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** A mark drawn on a stone of the third seat onwards (shape as well as colour). */
function markPath(kind: string, cx: number, cy: number, r: number): string {
  const s = r * 0.45;
  switch (kind) {
    case 'triangle':
      return `M${cx},${cy - s} L${cx + s * 0.87},${cy + s * 0.5} L${cx - s * 0.87},${cy + s * 0.5} Z`;
    case 'square':
      return `M${cx - s * 0.7},${cy - s * 0.7} h${s * 1.4} v${s * 1.4} h${-s * 1.4} Z`;
    case 'diamond':
      return `M${cx},${cy - s} L${cx + s},${cy} L${cx},${cy + s} L${cx - s},${cy} Z`;
    case 'cross':
      return `M${cx - s * 0.7},${cy - s * 0.7} L${cx + s * 0.7},${cy + s * 0.7} M${cx + s * 0.7},${cy - s * 0.7} L${cx - s * 0.7},${cy + s * 0.7}`;
    case 'ring':
      return `M${cx - s * 0.6},${cy} a${s * 0.6},${s * 0.6} 0 1,0 ${s * 1.2},0 a${s * 0.6},${s * 0.6} 0 1,0 ${-s * 1.2},0`;
    case 'bar':
      return `M${cx - s * 0.8},${cy} L${cx + s * 0.8},${cy}`;
    case 'dot':
      return `M${cx - s * 0.25},${cy} a${s * 0.25},${s * 0.25} 0 1,0 ${s * 0.5},0 a${s * 0.25},${s * 0.25} 0 1,0 ${-s * 0.5},0`;
    default:
      return '';
  }
}

export function createBoard2D(
  container: HTMLElement,
  map: MapView,
  mode: FlatMode,
  onPick: (node: number) => void,
  onHover: (node: number | null) => void = () => {},
): Board {
  const layout: FlatLayout = flatLayout(map, mode);
  const r = layout.radius;
  const svg = el('svg', {
    viewBox: layout.viewBox.join(' '),
    class: 'board2d',
    role: 'grid',
    'aria-label': `${map.name} board`,
  });
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  const lines = el('g', { class: 'lines', 'stroke-width': r * 0.06 });
  for (const [a, b] of layout.edges) {
    lines.append(el('line', { x1: layout.x[a], y1: layout.y[a], x2: layout.x[b], y2: layout.y[b] }));
  }
  for (const s of layout.stubs) {
    const x = layout.x[s.node];
    const y = layout.y[s.node];
    lines.append(el('line', { x1: x, y1: y, x2: x + s.dx, y2: y + s.dy, class: 'stub' }));
  }
  svg.append(lines);
  // Star points of the classic square boards, where players look for them.
  for (const node of starPoints(map)) {
    lines.append(el('circle', { cx: layout.x[node], cy: layout.y[node], r: r * 0.16, class: 'star' }));
  }
  const coords = el('g', { class: 'coords', 'font-size': r * 0.6 });
  for (const c of layout.coords) {
    const t = el('text', { x: c.x, y: c.y, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
    t.textContent = c.text;
    coords.append(t);
  }
  svg.append(coords);
  const under = el('g', { class: 'under' });
  // Maps without coordinates along their sides (hex, triangular, random, ...) name every node
  // on the board, small: the labels the log and the place field use. Stones cover them.
  const labels = el('g', { class: 'node-labels', 'font-size': r * 0.45, 'stroke-width': r * 0.14 });
  if (layout.coords.length === 0) {
    for (let i = 0; i < map.nodes; i++) {
      const t = el('text', { x: layout.x[i], y: layout.y[i], 'text-anchor': 'middle', 'dominant-baseline': 'central' });
      t.textContent = map.labels[i];
      labels.append(t);
    }
  }
  // A reachable node is marked by a small dot in the middle of its (stone-sized) hit circle, not
  // a disc as large as a stone: a board full of them read as ghost stones.
  const defs = el('defs');
  const dot = el('radialGradient', { id: 'reach-dot' });
  dot.append(el('stop', { offset: '0.26', 'stop-color': '#3b8f5a', 'stop-opacity': '0.75' }),
    el('stop', { offset: '0.3', 'stop-color': '#3b8f5a', 'stop-opacity': '0' }));
  defs.append(dot);
  svg.append(defs);
  // Claims over the names: a claimed point must read as claimed, its name shows around the mark.
  const claimMarks = el('g', { class: 'claims' });
  const stones = el('g', { class: 'stones' });
  const over = el('g', { class: 'over' });
  const hits = el('g', { class: 'hits' });
  svg.append(under, labels, claimMarks, stones, over, hits);

  const n = map.nodes;
  const stoneEls: (SVGGElement | null)[] = new Array(n).fill(null);
  const claimEls: (SVGPathElement | null)[] = new Array(n).fill(null);
  const reservedEls: (SVGCircleElement | null)[] = new Array(n).fill(null);
  const coverEls: (SVGRectElement | null)[] = new Array(n).fill(null);
  const coverKey: (number | 'both' | null)[] = new Array(n).fill(null);
  const stoneKey: string[] = new Array(n).fill('');
  const hitEls: SVGCircleElement[] = [];
  for (let i = 0; i < n; i++) {
    const h = el('circle', { cx: layout.x[i], cy: layout.y[i], r: r, class: 'hit', 'data-node': i });
    const title = el('title');
    title.textContent = map.labels[i];
    h.append(title);
    hitEls.push(h);
    hits.append(h);
  }
  /** Start-point rings, redrawn when they change. */
  const startMarks = el('g', { class: 'starts' });
  under.append(startMarks);
  let startsKey = '';
  const last = el('circle', { r: r * 0.3, class: 'last', visibility: 'hidden' });
  const pendingMark = el('circle', { r: r * 0.9, class: 'pending', visibility: 'hidden' });
  over.append(last, pendingMark);

  const pick = (ev: Event) => {
    const t = ev.target as Element | null;
    const node = t?.getAttribute('data-node');
    if (node !== null && node !== undefined) onPick(Number(node));
  };
  hits.addEventListener('click', pick);
  hits.addEventListener('pointerover', (ev) => {
    const node = (ev.target as Element | null)?.getAttribute('data-node');
    onHover(node == null ? null : Number(node));
  });
  hits.addEventListener('pointerleave', () => onHover(null));
  container.append(svg);

  function drawStone(i: number, owner: number | null, view: BoardView, d: StoneDecoration | undefined) {
    const selected = d?.crossed ?? false;
    const atari = d?.ring === 'atari';
    const mine = owner !== null && owner === view.mySeat;
    const scale = d?.scale ?? 1;
    const sr = r * scale;
    const label = d?.label ?? '';
    const target = d?.ring === 'target';
    const lifted = d?.ring === 'lifted';
    const style = owner === null ? null : (d?.style ?? owner);
    const faded = d?.faded ?? false;
    const key = owner === null ? '' : `${style}:${selected}:${atari}:${mine}:${view.players}:${scale}:${label}:${target}:${lifted}:${faded}`;
    if (stoneKey[i] === key) return;
    stoneKey[i] = key;
    stoneEls[i]?.remove();
    stoneEls[i] = null;
    if (owner === null || style === null) return;
    const st = playerStyle(style, view.players);
    const g = el('g', { class: `stone p${style}${selected ? ' selected' : ''}${mine ? ' mine' : ''}${lifted ? ' lifted' : ''}${faded ? ' faded' : ''}`, 'data-stone': i });
    g.append(el('circle', { cx: layout.x[i], cy: layout.y[i], r: sr * 0.96, fill: st.fill, stroke: st.stroke, 'stroke-width': sr * 0.06 }));
    if (st.mark !== 'none') {
      const filled = st.mark === 'triangle' || st.mark === 'square' || st.mark === 'diamond' || st.mark === 'dot';
      g.append(
        el('path', {
          d: markPath(st.mark, layout.x[i], layout.y[i], sr),
          fill: filled ? st.ink : 'none',
          stroke: st.ink,
          'stroke-width': sr * 0.12,
          class: 'mark',
        }),
      );
    }
    if (atari) g.append(el('circle', { cx: layout.x[i], cy: layout.y[i], r: sr * 1.05, class: 'atari-ring', 'stroke-width': sr * 0.12 }));
    if (selected) g.append(el('path', { d: markPath('cross', layout.x[i], layout.y[i], sr * 1.8), class: 'surrender-mark', 'stroke-width': sr * 0.18 }));
    if (label) {
      const t = el('text', { x: layout.x[i], y: layout.y[i], class: 'height', fill: st.ink, 'font-size': sr * 1.1, 'data-height': label });
      t.textContent = label;
      g.append(t);
    }
    if (target) g.append(el('circle', { cx: layout.x[i], cy: layout.y[i], r: sr * 1.08, class: 'target-ring', 'stroke-width': sr * 0.16 }));
    if (lifted) g.append(el('circle', { cx: layout.x[i], cy: layout.y[i], r: sr * 1.08, class: 'lifted-ring', 'stroke-width': sr * 0.16 }));
    stones.append(g);
    stoneEls[i] = g;
  }

  /** A claim's diamond (a territory's square) in the claimant's colour on an empty node. */
  function drawClaim(i: number, claimant: number | null, players: number, shape: 'diamond' | 'square') {
    let prevClaim = claimEls[i];
    if (prevClaim && prevClaim.dataset.shape !== shape) {
      prevClaim.remove();
      prevClaim = claimEls[i] = null;
    }
    if (claimant === null) {
      if (prevClaim) {
        prevClaim.remove();
        claimEls[i] = null;
      }
      return;
    }
    const st = playerStyle(claimant, players);
    const d = markPath(shape, layout.x[i], layout.y[i], r * (shape === 'square' ? 0.9 : 0.7));
    const cls = `claim c${claimant}${shape === 'square' ? ' territory' : ''}`;
    if (!prevClaim) {
      const p = el('path', { class: cls, d, 'stroke-width': r * 0.05, 'data-shape': shape });
      claimMarks.append(p);
      claimEls[i] = p;
    }
    const p = claimEls[i];
    p?.setAttribute('fill', st.fill);
    p?.setAttribute('stroke', st.stroke);
    p?.setAttribute('class', cls);
  }

  /** A reserved node's moving ring in its holder's colour. */
  function drawReserved(i: number, seat: number | null, players: number) {
    if (seat === null) {
      reservedEls[i]?.remove();
      reservedEls[i] = null;
    } else if (!reservedEls[i]) {
      const st = playerStyle(seat, players);
      const c = el('circle', { cx: layout.x[i], cy: layout.y[i], r: r * 0.9, class: 'reserved', stroke: st.fill, 'stroke-width': r * 0.14 });
      const t = el('title');
      t.textContent = `${map.labels[i]}: reserved for ${st.name} until their next turn`;
      c.append(t);
      over.append(c);
      reservedEls[i] = c;
    }
  }

  /** A small square tinted by whoever keeps stones off the node (grey for both). */
  function drawTint(i: number, tint: number | 'both' | null, players: number) {
    if (tint === coverKey[i]) return;
    coverKey[i] = tint;
    coverEls[i]?.remove();
    coverEls[i] = null;
    if (tint === null) return;
    const fill = tint === 'both' ? 'grey' : playerStyle(tint, players).fill;
    const q = el('rect', {
      x: layout.x[i] - r * 0.45, y: layout.y[i] - r * 0.45, width: r * 0.9, height: r * 0.9,
      class: `covered c${tint === 'both' ? 2 : tint}`, fill,
    });
    under.append(q);
    coverEls[i] = q;
  }

  /** Start-point and best-move rings, redrawn when they change. */
  function drawStarts(nodes: Map<number, NodeDecoration>, players: number) {
    const rings: [number, NodeRing][] = [];
    for (const [node, d] of nodes) if (d.ring && d.ring.kind !== 'reserved') rings.push([node, d.ring]);
    const key = JSON.stringify(rings);
    if (key === startsKey) return;
    startsKey = key;
    startMarks.replaceChildren();
    for (const [node, mark] of rings) {
      const seat = mark.seat;
      const st = seat === null ? null : playerStyle(seat, players);
      const best = mark.kind === 'best';
      const ring = el('circle', {
        cx: layout.x[node], cy: layout.y[node], r: r * 0.55,
        class: best ? 'best' : `start${seat === null ? ' free' : ''}`, [best ? 'data-best' : 'data-start']: node,
        stroke: st?.fill ?? 'currentColor', 'stroke-width': r * 0.14,
      });
      const t = el('title');
      t.textContent = mark.kind === 'best' ? `${map.labels[node]}: ${mark.title}`
        : seat === null ? `${map.labels[node]}: a free start point` : `${map.labels[node]}: ${st?.name}'s start point`;
      ring.append(t);
      startMarks.append(ring);
    }
  }

  return {
    element: svg,
    render(view: BoardView) {
      const deco: Decorations = view.decorations ?? {};
      const stoneDeco = deco.stones ?? NO_STONES;
      const nodeDeco = deco.nodes ?? NO_NODES;
      for (let i = 0; i < n; i++) {
        const owner = view.board[i] ?? null;
        drawStone(i, owner, view, stoneDeco.get(i));
        // A stone covers its node's claim, tint, reservation and the disputed shade.
        const d = owner === null ? nodeDeco.get(i) : undefined;
        drawClaim(i, d?.territory ?? d?.claim ?? null, view.players, d?.territory !== undefined ? 'square' : 'diamond');
        drawReserved(i, d?.ring?.kind === 'reserved' ? d.ring.seat : null, view.players);
        const tint = d?.tint ?? null;
        drawTint(i, tint, view.players);
        hitEls[i].classList.toggle('covered', tint !== null);
        hitEls[i].classList.toggle('liberty', deco.hover?.has(i) ?? false);
        hitEls[i].classList.toggle('disputed', d?.shade === 'disputed');
        // A move onto one's own stack reaches an occupied node: this shade shows over a stone.
        hitEls[i].classList.toggle('reachable', nodeDeco.get(i)?.shade === 'reachable');
        hitEls[i].classList.toggle('occupied', view.board[i] !== null && view.board[i] !== undefined);
      }
      if (view.lastMove !== null && view.board[view.lastMove] != null) {
        const owner = view.board[view.lastMove] as number;
        const d = stoneDeco.get(view.lastMove);
        last.setAttribute('cx', String(layout.x[view.lastMove]));
        last.setAttribute('cy', String(layout.y[view.lastMove]));
        // The stone's ink, outlined in its own dark colour: on seats whose shape is drawn in
        // that ink (Red's triangle and later) a plain dot vanished into the shape.
        const style = playerStyle(d?.style ?? owner, view.players);
        last.setAttribute('fill', style.ink);
        last.setAttribute('stroke', style.stroke);
        last.setAttribute('stroke-width', String(r * 0.12));
        last.setAttribute('r', String(r * 0.3 * Math.sqrt(d?.scale ?? 1)));
        last.setAttribute('visibility', 'visible');
      } else {
        last.setAttribute('visibility', 'hidden');
      }
      if (view.pending !== undefined && view.pending !== null) {
        pendingMark.setAttribute('cx', String(layout.x[view.pending]));
        pendingMark.setAttribute('cy', String(layout.y[view.pending]));
        pendingMark.setAttribute('visibility', 'visible');
      } else {
        pendingMark.setAttribute('visibility', 'hidden');
      }
      drawStarts(nodeDeco, view.players);
      svg.classList.toggle('interactive', view.interactive);
      labels.style.display = view.showLabels === false ? 'none' : '';
    },
    destroy() {
      svg.remove();
    },
  };
}

/** The star points (hoshi) of unwrapped square grids of the usual sizes: none elsewhere. */
export function starPoints(map: MapView): number[] {
  const g = map.grid;
  if (!g || g.wrap || g.width !== g.height) return [];
  const lines: Record<number, number[]> = { 9: [2, 4, 6], 13: [3, 6, 9], 19: [3, 9, 15] };
  const at = lines[g.width];
  if (!at) return [];
  const out: number[] = [];
  for (const row of at) for (const col of at) {
    // 9×9: the four corners' points and the centre only.
    if (g.width === 9 && (row === 4) !== (col === 4)) continue;
    out.push(row * g.width + col);
  }
  return out;
}
