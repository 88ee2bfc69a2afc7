// One game as the client knows it: the server's info and state, applied in sequence order.
// Pure (no DOM, no socket) so that it is tested on its own.

import { playerStyle } from './colors';
import { type LogCarry, type SystemUi, systemUi } from './systems';
import type { ClockView, GameInfo, GameState, MapView, ServerMessage } from './types';
import type { Naming } from './words';

/** A line of the game's log, with the sequence number it came with. */
export interface LogLine {
  seq: number;
  text: string;
}

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
        // A sync carries every event so far: the log is written again from them.
        this.moves = 0;
        this.carry = {};
        this.log = [];
        this.describe(msg.events, msg.seq);
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
        this.state = msg.state;
        this.clock = msg.clock;
        this.seq = msg.seq;
        if (this.info) {
          this.info = { ...this.info, seq: msg.seq, status: msg.status as GameInfo['status'], clock: msg.clock };
          this.info.waiting_for = msg.waiting_for;
          this.info.undo_refused = msg.undo_refused;
          if (msg.state.outcome) this.info.outcome = msg.state.outcome;
        }
        const node = this.ui.lastMove(msg.action, this.map);
        if (node !== null) this.lastMove = node;
        this.describe(msg.events, msg.seq);
        return 'applied';
      }
      case 'undo':
        if (this.info) this.info = { ...this.info, undo: msg.request, undo_refused: msg.undo_refused };
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

  /** Adds the log's lines for `events`, numbered if the system wants the page to number them. */
  private describe(events: unknown[], seq: number) {
    const lines = this.ui.describe(events, this.naming(), this.carry);
    for (const text of lines) this.log.push({ seq, text: this.ui.numbered ? `${++this.moves}. ${text}` : text });
  }

  /** Seats that may act now, as the server said. */
  waitingFor(): number[] {
    return this.info?.waiting_for ?? [];
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

