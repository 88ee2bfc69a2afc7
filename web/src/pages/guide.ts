// The rules for players: one page per rule system, in plain words with small diagrams drawn by
// the real board. The developers' documents (docs/rules/, every interpretation) stay one click
// away for designers.

import { api } from '../api';
import { type BoardView, createBoard2D } from '../board2d';
import { type NodeDecoration, type StoneDecoration, at } from '../decorations';
import { clear, h } from '../dom';
import type { MapView } from '../types';

/** A small square board from rows of text: `.` empty, `X` Black, `O` White, `R` Red; `x`/`o` an
 *  empty point claimed by Black/White (GoBeyond); `*` after a stone marks the last move. */
export function diagramBoard(rows: string[]): { map: MapView; view: BoardView } {
  const cells = rows.map((r) => r.replace(/\s+/g, '').match(/[.XORxo]\*?/g) ?? []);
  const height = cells.length;
  const width = Math.max(...cells.map((r) => r.length));
  const letters = 'ABCDEFGHJKLMNOPQRST';
  const map: MapView = {
    name: 'diagram', spec: `rect:${width}x${height}`, dimension: 2, nodes: width * height,
    x: [], y: [], z: [], labels: [], edges: [], grid: { width, height, wrap: false }, start_points: [],
  };
  const board: (number | null)[] = [];
  const nodes = new Map<number, NodeDecoration>();
  let lastMove: number | null = null;
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const i = r * width + c;
      map.x.push(c);
      map.y.push(r);
      map.labels.push(`${letters[c]}${height - r}`);
      if (c + 1 < width) map.edges.push([i, i + 1]);
      if (r + 1 < height) map.edges.push([i, i + width]);
      const cell = cells[r][c] ?? '.';
      const stone = { X: 0, O: 1, R: 2 }[cell[0]] ?? null;
      board.push(stone);
      const claim = { x: 0, o: 1 }[cell[0]];
      if (claim !== undefined) nodes.set(i, { claim });
      if (cell.endsWith('*')) lastMove = i;
    }
  }
  const players = board.some((s) => s === 2) ? 3 : 2;
  return { map, view: { players, board, lastMove, mySeat: null, interactive: false, decorations: { nodes, stones: new Map() } } };
}

/** Gengo's diagrams: stones drawn at their size, and the 3×3 block each covers tinted. */
function gengoView(rows: string[]): { map: MapView; view: BoardView } {
  const { map, view } = diagramBoard(rows);
  const w = map.grid?.width ?? 1;
  const nodes = view.decorations?.nodes ?? new Map<number, NodeDecoration>();
  const stones = view.decorations?.stones ?? new Map<number, StoneDecoration>();
  view.board.forEach((owner, i) => {
    if (owner === null) return;
    stones.set(i, { scale: 1 / 0.47 });
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const x = (i % w) + dx;
      const y = Math.floor(i / w) + dy;
      const j = y * w + x;
      if (x < 0 || x >= w || y < 0 || j >= view.board.length || view.board[j] !== null) continue;
      const d = at(nodes, j);
      d.tint = d.tint === undefined || d.tint === owner ? owner : 'both';
    }
  });
  return { map, view: { ...view, decorations: { nodes, stones } } };
}

function diagram(rows: string[], caption: string, gengo = false): HTMLElement {
  const { map, view } = gengo ? gengoView(rows) : diagramBoard(rows);
  const box = h('div', { class: 'diagram-board' });
  const fig = h('figure', { class: 'diagram' }, box, h('figcaption', {}, caption));
  createBoard2D(box, map, 'drawn', () => {}).render(view);
  return fig;
}

type Section = [title: string, ...content: (string | HTMLElement)[]];

function sections(list: Section[]): HTMLElement[] {
  return list.map(([title, ...content]) =>
    h('section', { class: 'guide-section' }, h('h2', {}, title),
      ...content.map((c) => (typeof c === 'string' ? h('p', {}, c) : c))),
  );
}

const row = (...figs: HTMLElement[]) => h('div', { class: 'diagrams' }, ...figs);

function classicGuide(): HTMLElement[] {
  return sections([
    ['The goal', 'Surround more of the board than your opponent. Players take turns placing one stone of their colour on an empty point; stones never move. Black plays first.'],
    ['Liberties and captures',
      'The empty points next to a stone (along the lines) are its liberties. Stones of one colour that touch along the lines form a group and share their liberties.',
      'When a move takes the last liberty of an opponent group, the group is captured and removed.',
      row(
        diagram(['.....', '..X..', '.XO..', '..X..', '.....'], 'White has one liberty left (to the right).'),
        diagram(['.....', '..X..', '.X.X*.', '..X..', '.....'], 'Black plays there: the white stone is captured.'),
      ),
      'You may not play a stone that would have no liberties itself, unless it captures something.'],
    ['Ko',
      'A single stone captured this way cannot be taken back at once: the captured player must play elsewhere first (otherwise the same two moves could repeat for ever).',
      row(diagram(['.XO.', 'X.X*O', '.XO.'], 'Black has just played C2, capturing a stone at B2: White may not take back at B2 at once.'))],
    ['Passing and the end',
      'Instead of placing a stone you may pass. When every player passes in a row, play stops. You then agree on which stones are dead (they could not escape capture): click a group to mark it, and accept when the marking is right. Anyone may resume play instead if they disagree.',
      'The score is your stones on the board plus the empty points you surround (area scoring), or the points you surround plus your captures (territory scoring). White gets komi (usually 6.5 or 7.5 points) for moving second. The most points wins.'],
    ['On other maps', 'The lines of the map are the neighbours: on a hexagonal board a point has six, on a honeycomb three, on a torus the edges wrap around. Everything else is the same.'],
  ]);
}

function gobeyondGuide(d: Record<string, unknown>): HTMLElement[] {
  const n = (k: string, fallback: number) => (typeof d[k] === 'number' ? (d[k] as number) : fallback);
  const start = n('starting_points', 200);
  const cost = n('occupy_cost', 10);
  const award = n('capture_award', 10);
  const income = n('claim_income', 1);
  const bonus = n('final_bonus', 10);
  const turn = n('turn_seconds', 20);
  return sections([
    ['The goal', `Finish with the most PlayPoints. Everyone starts with ${start}. Stones cost points, surrounded empty points earn them, captures pay, and at the end every point you claim is worth a bonus. Two to eight players take turns in a fixed order.`],
    ['A turn',
      `Your turn starts with income: +${income} for every empty point you claim. Then you do one thing: occupy an empty point (a stone costs ${cost}), skip, pass, or resign. You have ${turn} seconds; if the time runs out, your turn is skipped.`],
    ['Claims',
      'An empty area that touches stones of only one player is claimed by that player: it pays them income every turn. An area touching two or more colours is disputed and pays nobody.',
      row(
        diagram(['xxX..', 'xxX..', 'XXX..', '...OO', '...Oo'], 'Black claims the four points in the corner, White one; the rest is disputed.'),
      )],
    ['Captures',
      `A group with no liberties (no empty point next to it along the lines) is captured: its stones leave the board and the capturer earns ${award} per stone. You may not place a stone that would have no liberties, unless it captures.`,
      row(
        diagram(['.....', '..XX.', '.XOO.', '..XX.', '.....'], 'White\u2019s two stones have one liberty left.'),
        diagram(['.....', '..XX.', '.X..X*', '..XX.', '.....'], `Black fills it: two stones captured, +${2 * award}.`),
      )],
    ['Reserved points', 'When a lone stone captures exactly one stone and is left with that one liberty, the emptied point is reserved for the capturer until their next turn: nobody may play there. This stops endless recapturing back and forth.'],
    ['Skip or Pass', 'Both do nothing this turn. A pass also counts towards the end: when every player passes in a row (one more pass than there are players), play stops. A skip never ends anything: use it to wait without ending the game.'],
    ['The end',
      'After the passes comes Clean-Up: each player may surrender their own stones that cannot live; the player who then claims each freed point earns for it. Then everyone gets a final bonus of ' + `${bonus} for each point they claim, and the most PlayPoints wins. Equal PlayPoints go to the player later in the turn order.`,
      'A player who resigns takes the last place still free; when only one player is left, they win.'],
  ]);
}

function tribalGuide(): HTMLElement[] {
  return sections([
    ['The goal', 'Hold more territory than any other tribe at the end. Two to eight tribes take turns; nobody may resign — a tribe that has nothing left to do passes.'],
    ['The start',
      'In the casual game everyone rolls two dice: the highest total moves first and chooses a start point first (ties roll again). Start points are spread as far apart as the map allows; yours is where your tribe grows from, not a stone.',
      'Newcomers get handicap stones: players with more games behind them owe fewer stones, and the stones go within 3 steps of the start point or the tribe\u2019s stones.'],
    ['A turn',
      'Pass, or Play: roll two dice — the higher die is your range — and place one stone on an empty point within that many steps (along the lines) of your start point or any of your stones. You may also place nothing after a bad roll. In the Pro game there are no dice: the range is fixed (5 by default).',
      row(diagram(['.....', '.....', '..X..', '.....', '.....'], 'With a range of 1, Black may play on the four points next to its stone (or next to its start point).'))],
    ['Captures and spoils',
      'A group with no liberties is captured, as in Go. Its stones are shared among every tribe with a stone touching it: each gets the same number, and the tribe that played the capturing stone also gets what is left over. Prisoners count at the end.',
      row(
        diagram(['.....', '.....', '.XR..', 'XOO..', '.XXX.'], 'White\u2019s two stones have one liberty left; Black and Red touch them.'),
        diagram(['.....', '.....', '.XR..', 'X..X*.', '.XXX.'], 'Black captures: Black and Red get one prisoner each.'),
      )],
    ['Alliances',
      'With three or more tribes, a tribe in trouble may surrender (on its turn) to the tribe with the most stones touching its own; that tribe must accept. Allied stones then count as one group and never capture each other, and the vassal\u2019s points count for its occupier. A vassal may declare independence on a later turn, or switch to a tribe that touches it more.'],
    ['The end',
      'When every tribe passes in a row the game ends. Groups with no liberties are removed and shared out; each tribe names its own dead stones, which become prisoners of whoever surrounds them. Then prisoners are filled into the territory of their colour: each prisoner of your colour held by another tribe takes one point of your territory away; prisoners that do not fit count for the tribes holding them. The most points wins; equal points share the place.'],
    ['Cards',
      'In the casual game a pair on the dice, or a pass, draws a card (you hold at most three; the others see only how many). Cards give extra or distant stones, move your stones, bank points or trade prisoners. Reject cards are played in answer to another tribe’s move: after each move everyone is asked, and a Reject undoes it.'],
  ]);
}

function gengoGuide(): HTMLElement[] {
  const g = (rows: string[], caption: string) => diagram(rows, caption, true);
  return sections([
    ['The goal', 'Go on a finer grid. Black and White take turns placing a stone on an empty space, or passing; stones never move. At the end the player with more stones on the board wins (the area each covers is shown too, and a game may be decided by area).'],
    ['Stones take room',
      'Each stone covers the 3×3 block of spaces around it: no stone of either colour may be played there. So stones are always at least two spaces apart, and a stone is drawn as large as the room it takes.',
      row(g(['.....', '.....', '..X..', '.....', '.....'], 'The tinted spaces around the stone are closed to everyone.'))],
    ['Connections and liberties',
      'Two stones of one colour connect when they are two spaces apart: straight, or a knight’s move. A group’s liberties are the open spaces at that distance from its stones. A lone stone has 12 in the open, 7 on an edge and 4 in a corner.',
      row(
        g(['.......', '.......', '..X....', '.......', '...X...', '.......'], 'A knight’s move apart: one group.'),
        g(['.......', '.......', '..X....', '.......', '....X..', '.......'], 'Two diagonal steps apart: not connected.'),
      )],
    ['Captures',
      'A group with no liberties is captured and removed, freeing the spaces it covered. After a move, the opponent’s groups without liberties go first; then your own.',
      row(
        g(['.....', '.....', '.....', '..O..', 'X....'], 'White C2 covers two of A1’s four liberties and is a third.'),
        g(['.....', 'O*....', '.....', '..O..', '.....'], 'White A4 covers the last one: A1 is captured.'),
      )],
    ['Suicide and friendly fire', 'A stone that leaves its own group with no liberties dies at once (suicide), and a move that takes the last liberty of another of your groups kills that group (friendly fire). Both are allowed unless the game says otherwise.'],
    ['Ko', 'When a move captures exactly one stone and the capturing stone could be captured back alone at once, it may not be: play elsewhere (or pass) first.'],
    ['The end', 'Three passes in a row end the game. Count the stones on the board: more wins, equal is a draw. White may get komi.'],
  ]);
}

/** A diagram for the moving-stone games: destinations (green), captures (red rings), stack
 *  heights and attacked nodes given by label. */
function lineDiagram(
  rows: string[],
  caption: string,
  opts: { reach?: string[]; targets?: string[]; heights?: Record<string, number>; attacked?: string[] } = {},
): HTMLElement {
  const { map, view } = diagramBoard(rows);
  const node = (l: string) => map.labels.indexOf(l);
  const nodes = new Map<number, NodeDecoration>();
  const stones = new Map<number, StoneDecoration>();
  for (const l of opts.reach ?? []) at(nodes, node(l)).shade = 'reachable';
  for (const l of opts.targets ?? []) at(stones, node(l)).ring = 'target';
  for (const [l, height] of Object.entries(opts.heights ?? {})) if (height > 1) at(stones, node(l)).label = String(height);
  for (const l of opts.attacked ?? []) if (view.board[node(l)] === null) at(nodes, node(l)).tint = 0;
  view.decorations = { nodes, stones };
  const box = h('div', { class: 'diagram-board' });
  const fig = h('figure', { class: 'diagram' }, box, h('figcaption', {}, caption));
  createBoard2D(box, map, 'drawn', () => {}).render(view);
  return fig;
}

function wayOfGoGuide(): HTMLElement[] {
  return sections([
    ['The goal', 'Before the game each player sets a contract: how many enemy stones they must capture (5 unless the game says otherwise). The first to fulfil it wins. If both get there in the same round (White’s turn and then Black’s), both contracts go up by one and the game goes on.'],
    ['The pie', 'The first player places two Black stones and one White anywhere. The second player then chooses a colour; White moves first. So place them so that you do not mind which side you get.'],
    ['A turn',
      'Either drop a new stone on any empty point; or move one of your stones and then drop; or drop and then move another of your stones; or capture — a capture is the whole turn, with no drop before or after. Ordinary moves never capture.'],
    ['How far a stone moves',
      'A stone moves along a line exactly as many points as its group has liberties — no more, no less — jumping over anything in the way. If the board ends first, it cannot go that way. A stone whose group has no liberties cannot move (and is not removed).',
      row(
        lineDiagram(['.........', '.........', '.........', '.........', '....X....', '.........', '.........', '.........', '.........'], 'Four liberties: exactly four points in each direction.', { reach: ['A5', 'J5', 'E9', 'E1'] }),
        lineDiagram(['.........', '.........', '.........', '.........', '....X....', '....O....', '.........', '.........', '.........'], 'White below takes a liberty: three points, jumping over White.', { reach: ['B5', 'H5', 'E8', 'E2'] }),
      )],
    ['Capturing',
      'A move that ends exactly on an enemy stone captures it — and your moving stone is sacrificed too. Only you score the capture. So stones next to an enemy shorten its reach, and a stone exactly in range of an enemy is in danger.',
      row(lineDiagram(['.........', '.........', '.........', '.........', '....X...O', '.........', '.........', '.........', '.........'], 'E5 reaches J5: both leave the board, Black scores one.', { reach: ['A5', 'E9', 'E1'], targets: ['J5'] }))],
    ['Variants and the end', 'With the push variant, a move onto your own stone pushes it one point further (capturing what it lands on). A player with no possible turn passes; two passes in a row, or the turn limit, end the game, and the player closer to their contract wins.'],
  ]);
}

function besiegeGuide(): HTMLElement[] {
  return sections([
    ['The goal', 'BeSiege is The Way of Go with stacks and without contracts: the game ends when the player to move has no possible turn, and the one with more captures wins. The pie opens the game as in The Way of Go.'],
    ['Drops only on neutral points',
      'A new stone may only be dropped where no stack of either colour could move to. The board shows the attacked points; the others are neutral.',
      row(lineDiagram(['.........', '.........', '.........', '.........', '....X....', '.........', '.........', '.........', '.........'], 'The four points E5 can reach are attacked: no drop there.', { attacked: ['A5', 'J5', 'E9', 'E1'] }))],
    ['Stacks',
      'A stone (or a stack) may move onto your own stones to form a stack. You may lift only the top part of a stack. The range of what you lift is the liberties of its lowest stone, counted at its level: neighbours whose stacks are too low to reach that level are liberties, and stones at the same level connect.',
      row(lineDiagram(['.....', '.....', '.XX..', '.O...', '.....'], 'B3 holds 3, C3 holds 2. The top stone of B3 moves 4, the top two 6, the whole stack 5.', { heights: { B3: 3, C3: 2 } }))],
    ['Captures between stacks', 'Landing on an enemy stack captures: as many stones leave each side as the smaller stack has, and the difference stays. You score the enemy stones removed. A capture is the whole turn.'],
  ]);
}

export async function guidePage(root: HTMLElement, system: string) {
  const systems = await api.rules();
  const s = systems.find((x) => x.name === system) ?? systems[0];
  clear(root);
  const guides: Record<string, () => HTMLElement[]> = {
    gobeyond: () => gobeyondGuide(s?.defaults ?? {}),
    tribal: tribalGuide,
    gengo: gengoGuide,
    'way-of-go': wayOfGoGuide,
    besiege: besiegeGuide,
  };
  const body = (guides[s?.name ?? ''] ?? classicGuide)();
  root.append(
    h('nav', { class: 'row tabs' },
      ...systems.map((x) => h('a', { href: `#/rules/${x.name}`, 'aria-current': x.name === s?.name ? 'page' : undefined }, x.title))),
    h('article', { class: 'card guide', id: 'rules-guide', 'data-system': s?.name ?? system },
      h('h1', {}, `How to play ${s?.title ?? system}`),
      ...body,
      h('p', { class: 'muted' }, 'The numbers above are the defaults; a game may change them (its page shows its rules). ',
        h('a', { href: `#/rules/${s?.name ?? system}/reference`, id: 'rules-reference' }, 'The complete rules as implemented'),
        ', with every setting and every reading of the rule document, are for designers and the curious.'),
    ),
  );
}
