// The server's JSON: the protocol generated from the server's Rust types (protocol.ts), and
// what every rule system's states and actions share (views.ts).

export type {
  ClockView,
  GameEvent,
  GameInfo,
  GameSummary,
  Outcome,
  SeatView as SeatInfo,
  ServerMessage,
  User,
} from './protocol';
export type { BaseAction, BaseMove, BasePlayer, BaseState, GameState, MapView, RecordedAction } from './views';
