// Player colours. The engine names them (Black, White, Red, ...); these are the Okabe–Ito hues,
// which stay apart for the common colour-vision deficiencies, and every seat from the third on
// also gets a shape drawn on its stones so that colour is never the only cue.

export interface PlayerStyle {
  name: string;
  fill: string;
  stroke: string;
  /** The colour of marks drawn on top of the stone. */
  ink: string;
  /** A shape drawn on the stone: none for the two classic colours. */
  mark: 'none' | 'triangle' | 'square' | 'diamond' | 'cross' | 'ring' | 'bar' | 'dot';
}

const STYLES: Record<string, Omit<PlayerStyle, 'name'>> = {
  Black: { fill: '#1b1b1b', stroke: '#000000', ink: '#ffffff', mark: 'none' },
  White: { fill: '#f7f7f2', stroke: '#555555', ink: '#000000', mark: 'none' },
  Red: { fill: '#d55e00', stroke: '#7a3600', ink: '#ffffff', mark: 'triangle' },
  Blue: { fill: '#0072b2', stroke: '#003d60', ink: '#ffffff', mark: 'square' },
  Green: { fill: '#009e73', stroke: '#004d38', ink: '#ffffff', mark: 'diamond' },
  Yellow: { fill: '#f0e442', stroke: '#8a8200', ink: '#000000', mark: 'cross' },
  Purple: { fill: '#cc79a7', stroke: '#6e3858', ink: '#000000', mark: 'ring' },
  Orange: { fill: '#e69f00', stroke: '#7a5500', ink: '#000000', mark: 'bar' },
};

const ORDER = ['Black', 'White', 'Red', 'Blue', 'Green', 'Yellow', 'Purple', 'Orange'];

/** The style of seat `seat` in a game of `players` (the engine's own naming rule). */
export function playerStyle(seat: number, players: number): PlayerStyle {
  const name = players <= 2 ? ORDER[Math.min(seat, 1)] : ORDER[seat % ORDER.length];
  return { name, ...STYLES[name] };
}

/** The style for an engine colour name (as in `state.players[i].color`). */
export function styleByName(name: string): PlayerStyle {
  const s = STYLES[name] ?? STYLES.Black;
  return { name, ...s };
}

export const ALL_COLOURS = ORDER;
