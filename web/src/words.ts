// The event log in plain words: how players and nodes are named, and small helpers. Each rule
// system words its own events (src/systems/).

export interface Naming {
  /** "Blue (ada)" or just the colour. */
  player(seat: number): string;
  label(node: number): string;
}

export const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;
export const signed = (n: number) => (n >= 0 ? `+${n}` : `−${-n}`);

/** A rating as shown beside a name: "1523", "1500?" while provisional, with the change a game made. */
export function ratingText(r: { value: number; provisional: boolean; change?: number } | null | undefined): string {
  if (!r) return '';
  const change = r.change === undefined ? '' : ` ${signed(r.change)}`;
  return `${r.value}${r.provisional ? '?' : ''}${change}`;
}
