// Capture Go in the web client: each player's captures against the target, a log line per
// move with the stones it took, groups in atari ringed from the server's liberty counts, and
// the players' guide for newcomers.

import { diagram, row, sections } from '../diagrams';
import type { CaptureState, GoEvent, SystemTypes } from '../protocol';
import { type Naming, plural } from '../words';
import { goStones, onlyStones, placedAt } from './kit';
import { defineSystem } from './types';

/** The log's lines: one per move, with the stones it captured and whose they were. */
export function describeCaptureEvents(events: GoEvent[], names: Naming): string[] {
  const lines: string[] = [];
  for (const e of events) {
    switch (e.event) {
      case 'placed':
        lines.push(`${names.player(e.player)} played ${names.label(e.node)}`);
        break;
      case 'captured': {
        const line = `and captured ${plural(e.nodes.length, 'stone')} of ${names.player(e.owner)}`;
        if (lines.length) lines[lines.length - 1] += ` ${line}`;
        else lines.push(`${names.player(e.player)} ${line}`);
        break;
      }
      case 'passed':
        lines.push(`${names.player(e.player)} passed`);
        break;
      case 'resigned':
        lines.push(`${names.player(e.player)} resigned`);
        break;
      case 'timed_out':
        lines.push(`${names.player(e.player)} ran out of time`);
        break;
      case 'game_over': {
        const { ranking, places, scores } = e.outcome;
        lines.push(`Game over: ${ranking.map((p) => `${places[p] ?? '?'}. ${names.player(p)} (${plural(scores[p], 'capture')})`).join(', ')}`);
        break;
      }
    }
  }
  return lines;
}

/** Stones whose group has a single liberty, as the server counts them. */
function inAtari(s: CaptureState): Set<number> {
  const out = new Set<number>();
  s.liberties.forEach((l, n) => {
    if (l === 1) out.add(n);
  });
  return out;
}

/** A diagram with `marked` points shown as liberties. */
function liberties(rows: string[], marked: string[], caption: string): HTMLElement {
  return diagram(rows, caption, (map, view) => {
    view.decorations = { ...view.decorations, hover: new Set(marked.map((l) => map.labels.indexOf(l))) };
  });
}

function guide(defaults: Record<string, unknown>): HTMLElement[] {
  const target = typeof defaults.target === 'number' ? defaults.target : 1;
  return sections([
    ['The goal',
      `Be the first to capture ${target === 1 ? 'a stone' : `${target} stones`}. This is how Go is taught: it teaches liberties, atari and escaping before territory. Players take turns placing one stone of their colour on an empty point; stones never move. Black plays first.`],
    ['Liberties',
      'The empty points next to a stone, along the lines, are its liberties. Stones of one colour that touch along the lines form a group and share their liberties.',
      row(
        liberties(['.....', '.....', '..X..', '.....', '.....'], ['C4', 'B3', 'D3', 'C2'], 'A stone in the middle has four liberties (marked).'),
        liberties(['.....', '.....', '..XX.', '.....', '.....'], ['C4', 'D4', 'B3', 'E3', 'C2', 'D2'], 'Two stones together share six.'),
      )],
    ['Atari and capture',
      'A group with one liberty left is in atari: the next stone on that liberty captures it. Tick “show stones in atari” beside the board and the game rings them for you.',
      row(
        diagram(['.....', '..X..', '.XO..', '..X..', '.....'], 'White has one liberty left (to the right): atari.'),
        diagram(['.....', '..X..', '.X.X*', '..X..', '.....'], 'Black plays there and captures: Black wins.'),
      ),
      'In atari, run: extend your group so that it has more liberties, or capture one of the stones around it.'],
    ['What you may not play',
      'A stone that would have no liberty itself, unless it captures. And no move may repeat an earlier position of the board (so a capture cannot be taken back at once: play elsewhere first).'],
    ['The end',
      'The first to reach the target wins at once. If everyone passes in a row, or the turn limit comes, the most captures win, and equal captures share a place. With more than two players, a stone may capture stones of several players at once; a player who resigns leaves the game and is last.'],
    ['On other maps', 'The lines of the map are the neighbours: on a hexagonal board a point has six, on a honeycomb three, on a torus the edges wrap around. Everything else is the same.'],
  ]);
}

export const capture = defineSystem<SystemTypes['capture']>({
  name: 'capture',
  title: 'Capture Go',
  defaultMap: 'square:9',
  rulesLine: (r) => [typeof r.target === 'number' ? `first to capture ${plural(r.target, 'stone')}` : 'first capture wins'],
  guide,
  lastMove: (a, map) => (a.type === 'place' ? placedAt(a, map) : null),
  describe: (events, names) => describeCaptureEvents(events, names),
  numbered: true,
  columns: [{ header: 'Captures', title: 'stones captured, against the target', cell: (p, s) => (p ? `${p.captures}${s ? ` / ${s.target}` : ''}` : '') }],
  standing: (p) => `${plural(p.captures, 'capture')}`,
  buttons: () => [],
  passTitle: () => 'Pass (keyboard: P)',
  decorate: (s, map, viewer) => onlyStones(goStones(s.board, map, viewer, undefined, () => inAtari(s))),
  resigned: (s, seat) => s.players[seat]?.resigned === true,
  endWords: (o) =>
    ({
      contract: 'The target was reached.',
      passes: 'Everyone passed: the most captures won.',
      turn_limit: 'The turn limit came: the most captures won.',
      resignation: 'Everyone else left the game.',
      time: 'Everyone else left the game (out of time).',
    })[o.reason as string] ?? `Ended by ${o.reason.replace(/_/g, ' ')}.`,
  describeStone: (node, s) => {
    const l = s.liberties[node];
    if (l === null || l === undefined) return null;
    return l === 1 ? 'in atari: one liberty left' : `a group with ${l} liberties`;
  },
  describeEmpty: (label) => label,
  hasSgf: () => false,
});
