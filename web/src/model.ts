// One game as the client knows it: the server's info and state, applied in sequence order.
// Pure (no DOM, no socket) so that it is tested on its own.

import { playerStyle } from './colors';
import { type LogCarry, type LogLine, type SystemUi, systemUi } from './systems';
import type { ClockView, GameInfo, GameState, MapView, RecordedAction, ServerMessage } from './types';
import type { Naming } from './words';

export type { LogLine };

export type Applied = 'applied' | 'stale' | 'gap';

export class GameModel {
  info: GameInfo | null = null;
  state: GameState | null = null;
  clock: ClockView | null = null;
  /** Actions applied so far (the server's sequence number). */
  seq = 0;
  log: LogLine[] = [];
  lastMove: number | null = null;
  /** Actions standing (taken-back moves left out): the number a log line of an action shows. */
  moves = 0;
  /** The system's log state between updates. */
  private carry: LogCarry = {};

  constructor(
    readonly id: number,
    readonly map: MapView,
  ) {}

  get players(): number {
    return this.info?.players ?? this.state?.players.length ?? 2;
  }

  /** The rule system's name. */
  get system(): string | undefined {
    return this.info?.rules.system ?? this.state?.rules.system;
  }

  /** What the interface knows of the game's rule system. */
  get ui(): SystemUi {
    return systemUi(this.system);
  }

  naming(): Naming {
    return {
      player: (seat) => {
        const style = this.state ? (this.ui.seatStyle?.(this.state, seat) ?? seat) : seat;
        const colour = playerStyle(style, this.players).name;
        const name = displayName(this.state?.players[seat]?.name || this.info?.seats[seat]?.user);
        return name ? `${colour} (${name})` : colour;
      },
      label: (node) => this.map.labels[node] ?? `#${node}`,
    };
  }

  /** Applies a message about this game; says whether the client must ask for a fresh sync. */
  apply(msg: ServerMessage): Applied {
    switch (msg.type) {
      case 'sync': {
        this.info = msg.info;
        this.clock = msg.info.clock;
        this.state = msg.state;
        // Systems whose state holds the whole event history rebuild the log from it.
        if (this.ui.historyInState || msg.since === 0 || this.log.length === 0) {
          this.moves = 0;
          this.rebuildLog(msg.actions.map((a) => a.action), msg.seq);
        } else for (const a of msg.actions) this.log.push(...this.numbered(this.ui.logOfAction(a.action, a.seq, this.naming())));
        this.seq = msg.seq;
        for (const a of [...msg.actions].reverse()) {
          const node = this.ui.lastMove(a.action, this.map);
          if (node !== null) {
            this.lastMove = node;
            break;
          }
        }
        return 'applied';
      }
      case 'update': {
        if (msg.seq <= this.seq) return 'stale';
        if (msg.seq !== this.seq + 1) return 'gap';
        const before = this.state;
        this.state = msg.state;
        this.clock = msg.clock;
        this.seq = msg.seq;
        if (this.info) {
          this.info = { ...this.info, seq: msg.seq, status: msg.status as GameInfo['status'], clock: msg.clock };
          this.info.waiting_for = waitingFor(msg.state);
          if (msg.state.outcome) this.info.outcome = msg.state.outcome;
          const phase = (msg.state as Phased).phase;
          if (phase) this.info.phase = phase;
        }
        const node = this.ui.lastMove(msg.action, this.map);
        if (node !== null) this.lastMove = node;
        this.log.push(...this.numbered(this.ui.logOfUpdate(msg, before, this.naming(), this.carry).map((text) => ({ seq: msg.seq, text }))));
        return 'applied';
      }
      case 'undo':
        if (this.info) this.info = { ...this.info, undo: msg.request };
        return 'applied';
      case 'started':
      case 'lobby':
        this.info = msg.info;
        this.clock = msg.info.clock;
        return 'applied';
      default:
        return 'stale';
    }
  }

  private rebuildLog(actions: RecordedAction[], seq: number) {
    this.carry = {};
    const lines = this.ui.logOfSync(this.state, actions, seq, this.naming(), this.carry);
    this.log = this.ui.historyInState ? lines : this.numbered(lines);
  }

  /** Systems that log one line per action get its number (systems with the history in their
   *  state number their own lines, by turn). */
  private numbered(lines: LogLine[]): LogLine[] {
    if (this.ui.historyInState) return lines;
    return lines.map((l) => ({ ...l, text: `${++this.moves}. ${l.text}` }));
  }

  /** Seats that may act now. */
  waitingFor(): number[] {
    return this.info?.waiting_for ?? (this.state ? waitingFor(this.state) : []);
  }

  /** The seat `userId` holds, if any (the first one). */
  seatOf(userId: number | undefined): number | null {
    if (userId === undefined || !this.info) return null;
    const s = this.info.seats.find((s) => s.user_id === userId);
    return s ? s.seat : null;
  }

  isMyTurn(userId: number | undefined): boolean {
    const seat = this.seatOf(userId);
    return seat !== null && this.info?.status === 'live' && this.waitingFor().includes(seat);
  }
}

/** A seat's name for people: server bots are called "bot (level N)" in records. */
export function displayName(name: string | null | undefined): string {
  if (!name) return '';
  const bot = name.match(/^bot \(level (\d+)\)$/);
  return bot ? `bot, level ${bot[1]}` : name;
}

/** The phase and Clean-Up of the systems that have them (GoBeyond, Tribal Go). */
type Phased = GameState & { phase?: string; awaiting_cleanup?: number[] };

/** Seats the game waits for, from the state (updates do not say). */
export function waitingFor(state: Phased): number[] {
  if (state.outcome) return [];
  if (state.phase === 'clean_up') return state.awaiting_cleanup ?? [];
  return state.to_move === null ? [] : [state.to_move];
}
