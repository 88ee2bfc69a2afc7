// The event log in plain words: how players and nodes are named, and small helpers. Each rule
// system words its own events (src/systems/).

export interface Naming {
  /** "Blue (ada)" or just the colour. */
  player(seat: number): string;
  label(node: number): string;
}

export const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;
export const signed = (n: number) => (n >= 0 ? `+${n}` : `−${-n}`);

/** A rating as shown beside a name: "1523", "1500?" while provisional, with the change a game
 *  made; where the system's players read ranks, the rank first: "5k (1523)", "1d? (2510)". */
export function ratingText(r: { value: number; provisional: boolean; change?: number; rank?: string } | null | undefined): string {
  if (!r) return '';
  const change = r.change === undefined ? '' : ` ${signed(r.change)}`;
  const mark = r.provisional ? '?' : '';
  return r.rank ? `${r.rank}${mark} (${r.value})${change}` : `${r.value}${mark}${change}`;
}

/** A recorded action in a few words for the review ("placed at E4", "surrendered nothing"):
 *  the words of the moves every system shares, else the action's own name with spaces. */
export function actionWords(a: { type: string; at?: unknown; nodes?: unknown }): string {
  const at = typeof a.at === 'string' ? a.at : null;
  const count = Array.isArray(a.nodes) ? a.nodes.length : Array.isArray(a.at) ? a.at.length : 0;
  switch (a.type) {
    case 'place':
      return at ? `placed at ${at}` : 'placed a stone';
    case 'pass':
      return 'passed';
    case 'skip':
      return 'skipped';
    case 'resign':
      return 'resigned';
    case 'timeout':
      return 'ran out of time';
    case 'surrender':
      return count ? `surrendered ${plural(count, 'stone')}` : 'surrendered nothing';
    case 'cleanup_timeout':
      return 'ran out of Clean-Up time';
    default:
      return `${a.type.replace(/_/g, ' ')}${at ? ` ${at}` : ''}`;
  }
}
