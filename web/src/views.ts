import type {
  ClassicMove,
  ClassicState,
  GengoEvent,
  GengoMove,
  GengoState,
  GoBeyondEvent,
  GoBeyondMove,
  GoBeyondState,
  Outcome,
  TribalAnswer,
  TribalCard,
  TribalCardPlay,
  TribalEvent,
  TribalMove,
  TribalState,
  WayColour,
  WayEvent,
  WayMove,
  WayMoveView,
  WayState,
} from './protocol';

export type { GengoEvent, GoBeyondEvent, TribalCard, TribalEvent, WayColour, WayEvent, WayMoveView };

// What each rule system sends as a game's state, its recorded actions and its events: the
// systems' own JSON (docs/formats.md), read by src/systems/. Everything else the server sends
// is generated from its Rust types (protocol.ts).

export interface MapView {
  name: string;
  spec: string;
  dimension: 2 | 3;
  nodes: number;
  x: number[];
  y: number[];
  z: number[];
  labels: string[];
  edges: [number, number][];
  grid: { width: number; height: number; wrap: boolean } | null;
  start_points: number[];
}


export interface PlayerView {
  player: number;
  name: string;
  color: string;
  stones: string[];
  // GoBeyond
  points?: number;
  projected?: number;
  status?: string;
  claimed?: number;
  reservation?: string | null;
  surrendered?: string[] | null;
  // classic
  prisoners?: number;
  score?: number;
  resigned?: boolean;
  // Tribal Go
  start?: number | null;
  occupier?: number | null;
  /** Prisoners held per colour. */
  held?: number[];
  supply?: number | null;
  gone?: boolean;
  rolls?: number[];
  /** Cards in hand (how many: the faces are the holder's). */
  cards?: number;
  banked?: number;
  // Gengo
  lost?: number;
  stone_score?: number;
  area_score?: number;
  // The Way of Go and BeSiege
  colour?: WayColour;
  captures?: number;
  contract?: number | null;
  stone_count?: number;
}

export interface GameState {
  map: { name: string; spec: string; nodes: number };
  rules: { system: string; [k: string]: unknown };
  to_move: number | null;
  players: PlayerView[];
  board: (number | null)[];
  outcome: Outcome | null;
  consecutive_passes: number;
  /** `playing`, `clean_up`, `finished`; Tribal Go also `roll_off`, `choose_start`, `handicap`,
   *  `surrender_offer`. */
  phase?: string;
  // GoBeyond
  turn?: number;
  passes_to_end?: number;
  claims?: (number | null)[];
  reserved?: (number | null)[];
  nodes?: ('occupied' | 'claimed' | 'reserved' | 'disputed')[];
  awaiting_cleanup?: number[];
  events?: GoBeyondEvent[] | TribalEvent[];
  // classic
  status?: string;
  ownership?: (number | null)[];
  /** Stones marked dead (the dead-stone phase) or agreed dead. */
  dead?: number[];
  /** The dead-stone phase: seats that have accepted the marking. */
  accepted?: number[] | null;
  ko?: string | null;
  moves_played?: number;
  // Tribal Go
  rolling?: number | null;
  dice?: [number, number] | null;
  range?: number | null;
  reachable?: boolean[];
  start_choices?: number[];
  offer?: [number, number] | null;
  handicap_left?: number[];
  cards?: boolean;
  /** The viewer's own hand (a seat's view only). */
  hand?: TribalCard[] | null;
  playable?: TribalCard[];
  to_draw?: number;
  discards?: TribalCard[];
  card_play?: TribalCardPlay | null;
  reaction?: { mover: number; placed: number[]; asked: boolean; can_reject: boolean; can_replace: boolean } | null;
  replace?: number[];
  // Gengo
  turn_limit?: number;
  /** Who overlaps each space: null nobody, 0 or 1 one player, 2 both. */
  cover?: (number | null)[];
  /** Who each space counts for under area scoring. */
  area?: (number | null)[];
  groups?: { player: number; stones: number[]; liberties: number[] }[];
  /** Why each space cannot take the mover's stone (null: it can). */
  blocked?: (string | null)[];
  /** A stone's disc radius in map units. */
  stone_radius?: number;
  // The Way of Go and BeSiege
  turns?: number;
  colour?: (WayColour | null)[];
  height?: number[];
  /** Per node, the range of each top part of its stack (`ranges[n][k-1]`: the top k). */
  ranges?: number[][];
  /** Who attacks each empty node: bit 0 Black, bit 1 White (BeSiege). */
  attacked?: number[];
  drops?: number[];
  moves?: WayMoveView[];
  dropped?: number | null;
}

export interface RecordedAction {
  player: number;
  type:
    | 'place' | 'pass' | 'resign' | 'skip' | 'timeout' | 'surrender' | 'cleanup_timeout' | 'dead' | 'accept' | 'resume'
    | 'roll' | 'forgo' | 'choose_start' | 'decline' | 'independence' | 'dice'
    | 'play_card' | 'move_stone' | 'trade' | 'react' | 'discard' | 'return' | 'draw'
    | 'pie_stone' | 'choose_side' | 'drop' | 'move' | 'end_turn';
  at?: string | string[] | null;
  /** Tribal Go: the seat a surrender is offered to; the dice rolled. */
  to?: number | null;
  dice?: [number, number];
  /** Tribal Go's cards: the card (null when hidden from this viewer), a Move card's origin, a
   *  trade's partner, an answer in a reaction window (null when hidden). */
  card?: TribalCard | null;
  from?: number | null;
  from_at?: string | null;
  with?: number;
  answer?: TribalAnswer | null;
  node?: number | null;
  nodes?: number[];
  proposed?: boolean;
  // The Way of Go and BeSiege
  colour?: WayColour;
  to_at?: string | null;
  count?: number | null;
  dir?: number | null;
}

// `GameState` and `RecordedAction` read every system's JSON: each system's generated types
// (protocol.ts) must fit them, or this file does not compile.
type FitsState<T extends GameState> = T;
type FitsAction<T extends RecordedAction> = T;
export type CheckedStates = [FitsState<ClassicState>, FitsState<GoBeyondState>, FitsState<TribalState>, FitsState<GengoState>, FitsState<WayState>];
export type CheckedActions = [
  FitsAction<ClassicMove & { player: number }>,
  FitsAction<GoBeyondMove & { player: number }>,
  FitsAction<TribalMove & { player: number }>,
  FitsAction<GengoMove & { player: number }>,
  FitsAction<WayMove & { player: number }>,
];
