// The rule systems the web client knows. Each module in this folder owns everything of its
// system (state, marks, phases, log, guide: the interface in types.ts, typed on the system's own
// types); pages ask `systemUi(name)` and never name a system. A new system adds a file here and
// a line in SYSTEMS.

import type { SystemName } from '../protocol';
import type { BaseState } from '../types';
import { capture } from './capture';
import { classic } from './classic';
import { gengo } from './gengo';
import { gobeyond } from './gobeyond';
import { tribal } from './tribal';
import type { SystemUi } from './types';
import { besiege, wayOfGo } from './way_of_go';

export type * from './types';

// Keyed by every name the server's registry has, so a system without a module does not
// compile; erased here, once: pages read only what every state has.
const SYSTEMS: Record<SystemName, SystemUi> = { gobeyond, classic, tribal, gengo, 'way-of-go': wayOfGo, besiege, capture };

/** Whether a pass now would end play (the last of the passes in a row that do). */
export function passEndsPlay(ui: SystemUi, state: BaseState): boolean {
  const needed = ui.passesToEnd?.(state) ?? state.players.length;
  return state.outcome === null && state.consecutive_passes + 1 >= needed;
}

/** The interface of a system; unknown systems get the classic one (stones, passes, resigning). */
export function systemUi(name: string | undefined): SystemUi {
  return (name !== undefined && Object.hasOwn(SYSTEMS, name) && SYSTEMS[name as SystemName]) || classic;
}
