// What the web client knows of a rule system: the interface each module in this folder
// implements (index.ts lists them).

import type { Decorations } from '../decorations';
import type { Outcome, RulesSpec } from '../protocol';
import type { BaseMove, BaseState, MapView } from '../types';
import type { Naming } from '../words';

/** A move as the game recorded it: the system's move and who made it. */
export type Recorded<M> = M & { player: number };

/** A system's own types: its state, its moves and its events (`SystemTypes[name]` in
 *  protocol.ts). */
export interface Types {
  state: BaseState;
  move: BaseMove;
  event: unknown;
}

/** A column of the players table, after the name. */
export interface Column<S extends BaseState = BaseState> {
  header: string;
  title?: string;
  cls?: string;
  cell(player: S['players'][number] | undefined, state: S | null): string;
  /** Whether the column shows in this state (default: always). */
  shown?(state: S | null): boolean;
}

/** A button beside Pass and Resign, with its keyboard key. */
export interface Button {
  id: string;
  label: string;
  title: string;
  key: string;
  input: Input;
}

/** What a system's log keeps between updates (a line may need events of two updates); one
 *  per game, reset with the log. */
export type LogCarry = Record<string, unknown>;

/** What the viewer is doing, for the marks that depend on it. */
export interface Viewer {
  /** The node a first click picked, for systems whose inputs take two. */
  picked: number | null;
  /** Nodes the viewer has chosen in a decision (Clean-Up). */
  selected?: Set<number>;
  /** Whether to ring stones in atari (the viewer's choice). */
  atari: boolean;
  /** The node under the pointer. */
  hover: number | null;
}

/** An input as the server takes it. */
export type Input = Record<string, unknown>;

/** A decision the seats take together outside the turn order (Clean-Up, classic Go's dead
 *  stones). While one is open the play controls are hidden, a click on the board goes to
 *  `click`, and `card` fills the card under the play card. */
export interface Decision {
  /** The status line. */
  status(names: Naming): string;
  /** What the viewer's click on `node` does: send an input, or change the selection the viewer
   *  builds before sending it. Null: nothing. */
  click(node: number, seat: number, selected: Set<number>): { input?: Input; selected?: Set<number> } | null;
  /** The card's content. */
  card(view: DecisionView): HTMLElement[];
}

/** What a decision's card may show and do. */
export interface DecisionView {
  /** The viewer's seat (null: a spectator). */
  seat: number | null;
  selected: Set<number>;
  /** An action is on its way: buttons wait. */
  busy: boolean;
  names: Naming;
  map: MapView;
  /** Sends an input; with `clear`, empties the selection once sent. */
  act(input: Input, clear?: boolean): void;
}

/**
 * What the client knows of one rule system, typed on the system's own state `S`, move `M` and
 * event `E` (`SystemTypes[name]` in protocol.ts). Pages see it erased (`SystemUi`, on what
 * every state has) and never name a system.
 */
export interface SystemUi<T extends Types = Types, S extends BaseState = T['state'], M extends BaseMove = T['move'], E = T['event']> {
  readonly name: string;
  readonly title: string;
  /** What a map must have for this system (the lobby says so before a game is created). */
  readonly mapNeed?: { straightLines: true; example: string };
  /** The map the lobby offers first for this system (`square:19` for classic Go). */
  readonly defaultMap?: string;
  /** The settings players ask about first, in a few words each (the game page's rules line). */
  rulesLine(rules: RulesSpec): string[];
  /** How to play, for players: sections with diagrams (`defaults`: the system's settings). */
  guide(defaults: Record<string, unknown>): HTMLElement[];
  /** The node whose stone an action put down last (the last move's mark), if any. */
  lastMove(action: Recorded<M>, map: MapView): number | null;
  /** The log's lines for these events (a sync's, then each update's, in order); `carry` keeps
   *  what a line needs from earlier events. */
  describe(events: E[], names: Naming, carry: LogCarry): string[];
  /** Whether the page numbers each line, as the game counts moves (else the system numbers
   *  its own, or none). */
  readonly numbered: boolean;
  columns: Column<S>[];
  /** A player's standing in a few words (the review's list of players). */
  standing(player: S['players'][number]): string;
  /** Extra buttons for the player to move (`map`: for systems whose choices depend on it). */
  buttons(state: S, map?: MapView): Button[];
  passTitle(state: S): string;
  /** How many passes in a row end play (default: one per player): the page asks before the
   *  pass that would. */
  passesToEnd?(state: S): number;
  /** What the board marks besides whose stone is where (a closed vocabulary). */
  decorate(state: S, map: MapView, viewer: Viewer): Decorations;
  /** The colour style of a seat's stones, when the rules decide it (The Way of Go's pie);
   *  default: the seat's own. */
  seatStyle?(state: S, seat: number): number;
  /** Whether a first click's pick lasts in this state (default: no). */
  keepsPick?(state: S): boolean;
  /** False for systems where resigning is not permitted (Tribal Go: a tribe passes). */
  canResign?: boolean;
  /** Whether Pass is possible now (default: whenever it is the player's turn). */
  passAllowed?(state: S): boolean;
  /** The status line for this state, if the system words it (`mine`: the viewer must act). */
  status?(state: S, names: Naming, mine: boolean): string | null;
  /** The decision open in this state, if any. */
  decision?(state: S, map: MapView): Decision | null;
  /** How the game ended, in the system's words ("The first capture decided."); default: "Ended
   *  by" and the end reason. */
  endWords?(outcome: Outcome): string;
  /** What the end of the game (and the review's last step) shows under the ranking: the count,
   *  for systems that count (null: nothing). */
  countTable?(state: S, names: Naming): HTMLElement | null;
  /** The move number as the system's players count moves (classic Go: placements and passes,
   *  not the dead-stone marking); the review's counter uses it. Default: every action. */
  moveNumber?(state: S): number;
  /** The review's words for one action ("White E4"); default: the colour and the input. */
  reviewLine?(action: Recorded<M>, names: Naming): string;
  /** A settings field of the lobby's form changed: the system may adjust others (classic Go:
   *  komi 0.5 with a handicap). `field` finds a field by setting name. */
  formChanged?(name: string, field: (name: string) => HTMLInputElement | HTMLSelectElement | null): void;
  /** Whether a seat is out of the game (resigned). */
  resigned(state: S, seat: number): boolean;
  /** Whether a seat is out because it missed too many turns, not by choice (shown as timed
   *  out, not resigned). */
  timedOut?(state: S, seat: number): boolean;
  /** Whether the board changes with the node under the pointer (redrawn on hover). */
  hoverMarks?: boolean;
  /** More about a stone for its hover text (Gengo: its group's liberties). */
  describeStone?(node: number, state: S, names: Naming): string | null;
  /** The hover text of an empty node. */
  describeEmpty(label: string, node: number, state: S, names: Naming): string;
  /** SGF export exists for this game. */
  hasSgf(players: number): boolean;
  /** What a click on `node` by the player to act sends, for systems where a click is not
   *  always a placement (Tribal Go's Move cards: the stone, then where it goes). `picked` is
   *  the node picked by the previous click. Null: the default placement. */
  clickInput?(state: S, node: number, seat: number, picked: number | null): { input?: Input; pick?: number | null; say?: string } | null;
  /** A panel under the actions for the viewer (Tribal Go: the hand of cards; The Way of Go:
   *  the pie's choice). `seat` is the viewer's; `act` sends an input for it. */
  panel?(state: S, names: Naming, seat: number, act: (input: Input) => void): HTMLElement | null;
}

/** A system's interface, checked against the system's own types. */
export function defineSystem<T extends Types>(ui: SystemUi<T>): SystemUi<T> {
  return ui;
}
