// The event log in plain words: how players and nodes are named, and small helpers. Each rule
// system words its own events (src/systems/).

export interface Naming {
  /** "Blue (ada)" or just the colour. */
  player(seat: number): string;
  label(node: number): string;
}

export const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;
export const signed = (n: number) => (n >= 0 ? `+${n}` : `−${-n}`);
