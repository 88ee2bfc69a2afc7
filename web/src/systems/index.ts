// What the web client knows of each rule system: the log's wording, the players table's
// columns, extra buttons, board markers and hover texts. Pages ask `systemUi(name)` and never
// name a system; a new system adds a file here and a line in SYSTEMS.

import { classic } from './classic';
import { gengo } from './gengo';
import { gobeyond } from './gobeyond';
import { tribal } from './tribal';
import type { SystemUi } from './types';
import { besiege, wayOfGo } from './way_of_go';

export type * from './types';

const SYSTEMS: Record<string, SystemUi> = { gobeyond, classic, tribal, gengo, 'way-of-go': wayOfGo, besiege };

/** The interface of a system; unknown systems get the classic one (stones, passes, resigning). */
export function systemUi(name: string | undefined): SystemUi {
  return (name !== undefined && SYSTEMS[name]) || classic;
}
