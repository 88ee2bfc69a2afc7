// The tournament a game is a table of (GET /api/games/{id} `event`, docs/api.md): a line on the
// game page and the review page's header linking to the tournament.

import { h } from '../../dom';
import type { GameEvent } from '../../types';

/** "Round 2 of Friday Swiss". */
export function eventText(e: GameEvent): string {
  return `Round ${e.round} of ${e.name}`;
}

/** The line with its link, or nothing for a game of no tournament. */
export function eventLine(e: GameEvent | undefined): HTMLElement | null {
  if (!e) return null;
  return h('div', { class: 'event-line', id: 'event-line' },
    h('a', { href: `#/tournaments/${e.tournament}` }, eventText(e)),
    ` · table ${e.table}`);
}
