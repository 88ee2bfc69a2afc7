// Which clocks a game page shows: every player's own clock only under a time control that has
// one (a classic control may say "no time at all").

import type { ClockView } from './protocol';

/** Whether the players table gets a Time column: a clock per player, and a time limit. */
export function showsPlayerClocks(clock: ClockView | null | undefined, players: number): clock is ClockView {
  if (!clock || clock.remaining_ms.length !== players) return false;
  const control = clock.control;
  // Untimed games carry a classic control whose time is `none`: no column of "0 s".
  return control.kind === 'classic' && control.time.kind !== 'none';
}
