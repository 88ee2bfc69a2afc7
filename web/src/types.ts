// The server's JSON: the protocol generated from the server's Rust types (protocol.ts), and
// the rule systems' own states and actions (views.ts).

export type {
  ClockView,
  GameInfo,
  GameSummary,
  Outcome,
  SeatView as SeatInfo,
  ServerMessage,
  User,
} from './protocol';
export type { GameState, GengoEvent, GoBeyondEvent, MapView, PlayerView, RecordedAction, TribalCard, TribalEvent, WayEvent, WayMoveView } from './views';
