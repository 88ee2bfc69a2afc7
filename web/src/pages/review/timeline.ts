// The game's chat beside its moves: each line goes after the last move made before it was written.

import type { MainMove } from '../../analysis_types';
import type { ChatLine } from '../../protocol';

/** Chat lines by the main-line node they follow (`at:k`: after the k-th action; `at:0`: before
 *  the first move). Moves without a time (old records) take the time of the move before. */
export function chatByNode(moves: MainMove[], chat: ChatLine[]): Map<string, ChatLine[]> {
  const times: { key: string; ms: number }[] = [];
  let last = -Infinity;
  for (const m of [...moves].sort((a, b) => a.at - b.at)) {
    if (m.at_ms !== null) last = Math.max(last, m.at_ms);
    times.push({ key: `at:${m.at + 1}`, ms: last });
  }
  const out = new Map<string, ChatLine[]>();
  for (const line of [...chat].sort((a, b) => a.at_ms - b.at_ms)) {
    let key = 'at:0';
    for (const t of times) {
      if (t.ms <= line.at_ms) key = t.key;
      else break;
    }
    const list = out.get(key) ?? [];
    list.push(line);
    out.set(key, list);
  }
  return out;
}
