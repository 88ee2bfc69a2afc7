// Generated from crates/server/src/protocol/ by `make protocol`: do not edit.
// The envelope's types, then each rule system's own (its state, inputs and events) and
// `SystemTypes`, which names them by system, all from the rules registry. views.ts says
// what a state or an action of any system is.

import type { GameState, RecordedAction } from './views';

export type ClientMessage = { "type": "watch", game: number, since?: number, } | { "type": "unwatch", game: number, } | { "type": "act", game: number, action: { type: string, [key: string]: unknown }, seat?: number, 
/**
 * The sequence number of the last action the client saw: the action is for the
 * position after it and is refused (`stale`) in any other — a resend of an action
 * that was applied, or one that arrives late, never lands in a later position.
 * Without it (older clients) the action is for whatever position the game is in.
 */
after?: number, 
/**
 * Echoed in the answer, so a client can match answers to requests.
 */
id?: unknown, } | { "type": "chat", game: number, text: string, } | { "type": "ping", id?: unknown, };

export type ServerMessage = { "type": "hello", user: User, } | { "type": "ack", id: unknown, game: number, seq: number, } | { "type": "error", id: unknown, game?: number, error: string, code?: string, } | { "type": "pong", id: unknown, } | { "type": "sync", game: number, seq: number, since: number, actions: Array<SeqAction>, info: GameInfo, state: GameState | null, 
/**
 * Every effect so far, in the rule system's own terms (the log is built from these).
 */
events: AnyEvent[], } | { "type": "update", game: number, seq: number, action: RecordedAction, 
/**
 * The action's effects, in the rule system's own terms.
 */
events: unknown[], state: GameState, 
/**
 * The seats the game waits for now, as everyone may be told.
 */
waiting_for: Array<number>, clock: ClockView | null, status: Status, 
/**
 * Per seat, why it may not ask to take back a move now (null: it may).
 */
undo_refused: Array<string | null>, } | { "type": "started", game: number, info: GameInfo, } | { "type": "lobby", game: number, info: GameInfo, } | { "type": "undo", game: number, request: UndoView | null, note: UndoNote | null, 
/**
 * Per seat, why it may not ask to take back a move now (null: it may).
 */
undo_refused: Array<string | null>, } | { "type": "rematch", game: number, rematch: number, from: string, invite: string | null, } | { "type": "chat", game: number, 
/**
 * The line's id (what a report names).
 */
id: number, 
/**
 * None for the table's own lines (channel `system`).
 */
from: string | null, channel: Channel, text: string, at_ms: number, } | { "type": "chat_deleted", game: number, id: number, };

export type SeqAction = { seq: number, action: RecordedAction, };

export type GameInfo = { id: number, status: Status, creator: number, rules: { system: string, [key: string]: unknown }, map: { spec?: string, custom?: unknown } | string, players: number, time: TimeControl, seats: Array<SeatView>, 
/**
 * Changes its players' ratings.
 */
rated: boolean, 
/**
 * Listed nowhere: only its players and holders of its invite link see it (an open seat
 * waits for an invited player).
 */
private: boolean, seq: number, 
/**
 * The rule system's phase (`playing`, `clean_up`, ...; `finished`).
 */
phase: string, waiting_for: Array<number>, clock: ClockView | null, outcome: Outcome | null, 
/**
 * The result as the system's players write it (classic Go's `W+8.5`, `B+R`), if it has a
 * notation.
 */
result_text: string | null, 
/**
 * An undo request waiting for answers.
 */
undo: UndoView | null, 
/**
 * Per seat, why it may not ask to take back a move now (null: it may): the Undo button is
 * disabled with this reason.
 */
undo_refused: Array<string | null>, 
/**
 * A rated game that ended before every player's second move: it changed no rating.
 */
aborted: boolean, 
/**
 * Why this rated game changed no rating (aborted, or its players are not independent
 * accounts), once it has ended.
 */
unrated: string | null, 
/**
 * Ended by the server with no result: nobody played in it for a long time, or its only
 * person left a game against bots.
 */
abandoned: boolean, 
/**
 * The tournament round this game is a table of (`GET /api/games/{id}` only; absent for
 * other games and in the socket's states).
 */
event?: GameEvent, };

export type GameEvent = { 
/**
 * The tournament's id (`#/tournaments/ID`).
 */
tournament: number, 
/**
 * The tournament's name.
 */
name: string, 
/**
 * The round, from 1.
 */
round: number, 
/**
 * The table of the round, from 1.
 */
table: number, };

export type SeatView = { seat: number, 
/**
 * How the seat was set up at creation.
 */
kind: SeatChoice | null, user: string | null, user_id: number | null, bot_level: number | null, 
/**
 * The player's rating in this rule system (accounts, not guests or server bots).
 */
rating: RatingView | null, };

export type UndoView = { by: number, from: number, waiting: Array<number>, };

export type UndoNote = { "kind": "declined", seat: number, } | { "kind": "took_back", seat: number, } | { "kind": "lapsed" };

export type ClockView = { control: ClockKind, 
/**
 * Main time left per seat.
 */
remaining_ms: Array<number>, 
/**
 * Byo-yomi periods left per seat.
 */
periods_left: Array<number>, 
/**
 * When the current turn (or decision) runs out, in epoch milliseconds.
 */
deadline_ms: number | null, 
/**
 * The same, as milliseconds from now.
 */
left_ms: number | null, };

export type ClockKind = { "kind": "none" } | { "kind": "per_turn", turn_ms: number, decision_ms: number, } | { "kind": "classic", time: TimeControl, };

export type TimeControl = { "kind": "none" } | { "kind": "absolute", main_seconds: number, } | { "kind": "fischer", main_seconds: number, increment_seconds: number, max_seconds?: number, } | { "kind": "byo_yomi", main_seconds: number, periods: number, period_seconds: number, } | { "kind": "canadian", main_seconds: number, stones: number, period_seconds: number, } | { "kind": "simple", move_seconds: number, } | { "kind": "correspondence", move_seconds: number, max_seconds: number, weekends_off: boolean, };

export type SeatChoice = { "kind": "open" } | { "kind": "invite" } | { "kind": "bot", level: number, } | { "kind": "me" };

export type Status = "open" | "live" | "finished";

export type User = { id: number, name: string, 
/**
 * `guest`, `registered` or `bot`.
 */
kind: string, };

export type Outcome = { 
/**
 * Final score per player in turn order (what "score" means is the rule system's).
 */
scores: Array<number>, 
/**
 * Players from first place to last (players sharing a place in seat order's tie-break).
 */
ranking: Array<Player>, 
/**
 * Per seat, its place from 1; players who share a place (a draw, jigo) have the same one.
 */
places: Array<number>, reason: EndReason, 
/**
 * Players with equal scores were ordered by turn position, the later first (GoBeyond's
 * tie-breaker); they hold distinct places.
 */
tie_broken?: boolean, };

export type Player = number;

export type EndReason = "passes" | "resignation" | "time" | "contract" | "no_legal_move" | "turn_limit";

export type ErrorBody = { error: string, code: string | null, };

export type Health = { ok: boolean, 
/**
 * `sqlite` or `postgres`.
 */
database: string, games_loaded: number, 
/**
 * Resident memory of the server process (Linux).
 */
rss_bytes: number | null, 
/**
 * Bot searches running now for games with people, and for games of bots only (separate
 * budgets).
 */
bot_searches: [number, number], 
/**
 * With PostgreSQL: this instance's id among those sharing the database.
 */
instance: string | null, 
/**
 * The games this instance runs (their clocks and bots), by id.
 */
games_owned: Array<number>, 
/**
 * Games of other instances relayed to this one's clients now.
 */
games_relayed: number, 
/**
 * Game sockets and HTTP connections open now.
 */
sockets: number, connections: number, 
/**
 * The estimated bytes of the games in memory, and the budget they are kept within.
 */
games_bytes: number, games_bytes_budget: number, };

export type InviteBody = { invite: string | null, };

export type UserBody = { user: User, claimed_guest?: boolean, };

export type MeBody = { user: User | null, 
/**
 * The account's role and sanctions (docs/moderation.md); none when nobody is signed in.
 */
standing: StandingView | null, };

export type VacationView = { 
/**
 * A vacation runs now: the caller's correspondence clocks stand still.
 */
on: boolean, 
/**
 * When it ends by itself (the allowance used up), unless ended sooner.
 */
until_ms: number | null, allowance_days: number, used_ms: number, left_ms: number, 
/**
 * The server's time, which the other times are counted against.
 */
now_ms: number, };

export type OkBody = { ok: boolean, };

export type BotCreated = { user: User, token: string, };

export type BotList = { bots: Array<User>, };

export type GameCreated = { game: GameInfo, 
/**
 * The invitation code, when a seat is by invitation.
 */
invite: string | null, };

export type Joined = { seat: number, game: GameInfo, };

export type GameSummary = { id: number, status: string, 
/**
 * The rule system's name.
 */
rules: string | null, map: MapBrief | null, players: number, seats: Array<SummarySeat>, created_ms: number, 
/**
 * When it was last played in (epoch milliseconds).
 */
last_active_ms: number | null, 
/**
 * Sockets watching it now, its players' included (those of the instance that answered).
 */
watchers: number, result: unknown, 
/**
 * The result as the system's players write it (classic Go's `W+8.5`, `B+R`), if it has a
 * notation.
 */
result_text: string | null, rated: boolean, 
/**
 * Its time control, if it has one (not known for games listed before time controls
 * were: lists then show none).
 */
time: TimeControl | null, };

export type SummarySeat = { seat: number, user: string | null, bot_level: number | null, rating: RatingView | null, };

export type RatingView = { value: number, 
/**
 * Too few games to be sure: shown with a "?".
 */
provisional: boolean, games: number, 
/**
 * What the game on show changed it by (rated games that ended).
 */
change?: number, 
/**
 * The rating as a kyu/dan rank (`5k`, `2d`) where the system's players read one.
 */
rank?: string, };

export type PlayerProfile = { name: string, 
/**
 * `guest`, `registered` or `bot`.
 */
kind: string, 
/**
 * One per rule system they played rated games in.
 */
ratings: Array<SystemRating>, 
/**
 * Their rated games, newest first.
 */
history: Array<RatedGame>, 
/**
 * Wins, draws and losses per rule system and number of players (all their finished games).
 */
record: Array<SystemRecord>, 
/**
 * Their public games, newest first.
 */
games: Array<GameSummary>, };

export type SystemRating = { system: string, 
/**
 * Ratings are per rule system and number of players.
 */
players: number, rating: RatingView, };

export type SystemRecord = { system: string, players: number, won: number, drawn: number, lost: number, };

export type RatedGame = { game: number, system: string, players: number, place: number, before: number, after: number, at_ms: number, };

export type MapBrief = { "spec": string } | { "custom": { name: string, nodes: number, } };

export type GameList = { games: Array<GameSummary>, };

export type GamePage = { games: Array<GameSummary>, 
/**
 * `before` for the next page (`null`: this was the last).
 */
next: number | null, };

export type PlayersFound = { players: Array<FoundPlayer>, };

export type FoundPlayer = { name: string, 
/**
 * `registered` or `bot` (guests are not searched).
 */
kind: string, };

export type Tell = { 
/**
 * The games waiting for you, the least time left first, untimed ones after.
 */
waiting: Array<WaitingGame>, 
/**
 * Your games that ended in the last 24 hours, newest first.
 */
ended: Array<EndedGame>, 
/**
 * The server's clock (epoch milliseconds), to count `deadline_ms` down from.
 */
now_ms: number, };

export type WaitingGame = { game: number, 
/**
 * `move`, `decision` (dead stones, a reaction window: several seats at once) or `undo`
 * (another player asks to take a move back).
 */
kind: string, 
/**
 * The game's sequence number when the wait began: a new wait has a new one.
 */
seq: number, since_ms: number, 
/**
 * When your time runs out (`null`: no clock runs for you).
 */
deadline_ms: number | null, left_ms: number | null, };

export type EndedGame = { game: number, finished_ms: number, 
/**
 * Its rematch, while that waits for you to take your seat.
 */
rematch: number | null, };

export type ChatLine = { 
/**
 * What a report or a moderator names the line by.
 */
id: number, 
/**
 * None for the table's own lines (channel `system`).
 */
from: string | null, channel: Channel, text: string, at_ms: number, };

export type Channel = "players" | "spectators" | "system";

export type ChatHistory = { chat: Array<ChatLine>, 
/**
 * Whether the reader may write in this chat now (players, the creator, spectators admitted
 * with the invite link); joining a seat gives the right too.
 */
may_chat: boolean, 
/**
 * Where the reader's lines go (`players` or `spectators`), when they may chat.
 */
channel: Channel | null, 
/**
 * Why the reader may not chat, when they may not.
 */
why_not: string | null, };

export type StateAt = { at: number, total: number, action: RecordedAction | null, state: GameState, };

export type MailPrefs = { 
/**
 * Mail when a game has waited this many hours for your move.
 */
your_turn: boolean, idle_hours: number, 
/**
 * Mail when your clock has less than this many hours left.
 */
time_low: boolean, time_low_hours: number, 
/**
 * Mail when someone challenges you.
 */
challenge: boolean, 
/**
 * Mail when a game of yours ends.
 */
game_over: boolean, 
/**
 * One mail a day listing the games waiting for you.
 */
digest: boolean, 
/**
 * Mail when a tournament round you play in starts (on when a client leaves it out).
 */
tournament: boolean, };

export type MailSettings = { 
/**
 * This server sends mail (without, the web app says so).
 */
enabled: boolean, 
/**
 * Only registered accounts may add an address.
 */
registered: boolean, address: string | null, confirmed: boolean, prefs: MailPrefs | null, };

export type Confirmed = { address: string, };

export type Unsubscribed = { 
/**
 * The notice turned off (`your_turn`, `time_low`, `challenge`, `game_over`, `digest`,
 * `tournament`), or `all`.
 */
notice: string, };

export type PasswordReset = { 
/**
 * The account whose password changed (sign in with it).
 */
name: string, };

export type RuleSystems = { systems: Array<RuleSystemView>, };

export type RuleSystemView = { name: string, title: string, about: string, defaults: Record<string, unknown>, presets: Array<PresetView>, 
/**
 * One description per setting, for forms.
 */
settings: Array<SettingInfo>, 
/**
 * The system times its own turns (then a game has no time control).
 */
own_clock: boolean, };

export type PresetView = { name: string, about: string, settings: Record<string, unknown>, 
/**
 * Whether a game with these settings runs a clock of its own (a turn or decision time).
 */
timed: boolean, };

export type SettingInfo = { name: string, 
/**
 * `integer`, `number`, `choice`, `integers` (a list), `optional_integer`, or `boolean`.
 */
kind: 'integer' | 'number' | 'choice' | 'integers' | 'optional_integer' | 'boolean', default: unknown, help: string, choices?: Array<string>, min?: number, max?: number, };

export type Preset = { name: string, description: string, };

export type RulesSpec = { system: string, [key: string]: unknown };

export type MapSummary = { name: string, spec: string, nodes: number, };

export type StandingView = { role: string, muted_until_ms: number | null, suspended_until_ms: number | null, banned: boolean, reason: string | null, };

export type ReportCreated = { id: number, };

export type ModChatLine = { id: number, from: string | null, text: string, at_ms: number, deleted: boolean, };

export type ReportView = { id: number, reporter: string, user: string | null, game: number | null, chat: ModChatLine | null, 
/**
 * The chat around the reported line, or the reported game's last lines.
 */
context: Array<ModChatLine>, reason: string, text: string, created_ms: number, status: string, closed_by: string | null, note: string | null, };

export type ReportQueue = { reports: Array<ReportView>, };

export type ActionDone = { ok: boolean, 
/**
 * The audit line written.
 */
id: number, };

export type AuditEntry = { id: number, moderator: string | null, user: string | null, action: string, reason: string, detail: string | null, until_ms: number | null, at_ms: number, };

export type AuditLog = { entries: Array<AuditEntry>, };

export type ChallengeView = { id: number, from: string, to: string, 
/**
 * Sent to the reader (else sent by them).
 */
incoming: boolean, 
/**
 * `pending`, `accepted`, `declined`, `withdrawn` or `expired`.
 */
status: string, created_ms: number, expires_ms: number, 
/**
 * The game it became, once accepted.
 */
game: number | null, 
/**
 * The rules as given (a system or preset name), the map, the number of players.
 */
rules: string, map: string, players: number, rated: boolean, time: TimeControl, 
/**
 * The seat kept for the challenged player, and the challenger's.
 */
their_seat: number, my_seat: number | null, };

export type ChallengeList = { challenges: Array<ChallengeView>, incoming_pending: number, };

export type PersonView = { name: string, kind: string, 
/**
 * Seen in the last few minutes (an open game socket or the lobby).
 */
online: boolean, last_seen_ms: number | null, 
/**
 * Their public live games.
 */
live_games: Array<number>, };

export type PeopleList = { people: Array<PersonView>, };

export type Relations = { online: boolean, 
/**
 * The reader follows them, blocked them (false for nobody signed in).
 */
following: boolean, blocked: boolean, 
/**
 * Whether the reader may challenge them, and if not why.
 */
challenge: string | null, live_games: Array<number>, };

export type SeekView = { 
/**
 * `waiting`, `pairing` or `matched`.
 */
state: string, game: number | null, waited_ms: number, rules: string, shape: string, min_size: number, max_size: number, players: number, rating: number, 
/**
 * The opponents' ratings accepted now: the range asked for, widened with the wait.
 */
accepts: [number, number], 
/**
 * Other seekers who could meet this seek now.
 */
others: number, };

export type SeekStatus = { seek: SeekView | null, };

export type ClaimChange = { node: number, from: Player | null, to: Player | null, };

export type GoBeyondEvent = { "event": "starting_points", player: Player, points: number, } | { "event": "turn_started", turn: number, player: Player, } | { "event": "reservation_released", player: Player, node: number, } | { "event": "income", player: Player, claimed: number, points: number, } | { "event": "occupied", player: Player, node: number, cost: number, } | { "event": "captured", player: Player, victim: Player, nodes: Array<number>, award: number, } | { "event": "claims_changed", changes: Array<ClaimChange>, } | { "event": "reserved", player: Player, node: number, } | { "event": "skipped", player: Player, timeout: boolean, } | { "event": "passed", player: Player, automatic: boolean, consecutive: number, } | { "event": "resigned", player: Player, place: number, 
/**
 * Resigned for them: their turn ran out `timeouts_to_resign` times in a row.
 */
absent?: boolean, } | { "event": "turn_limit_reached", turns: number, } | { "event": "clean_up_started", players: Array<Player>, } | { "event": "surrendered", player: Player, nodes: Array<number>, timeout: boolean, } | { "event": "stones_removed", owner: Player, nodes: Array<number>, claimant: Player | null, award: number, } | { "event": "final_bonus", player: Player, claimed: number, points: number, } | { "event": "game_over", reason: EndReason, ranking: Array<Player>, scores: Array<number>, };

export type GoBeyondMove = { "type": "place", node?: number | null, at?: string | null, } | { "type": "pass" } | { "type": "skip" } | { "type": "resign" } | { "type": "timeout" } | { "type": "surrender", nodes?: Array<number>, at?: Array<string>, } | { "type": "cleanup_timeout" };

export type GoBeyondNode = "occupied" | "claimed" | "reserved" | "disputed";

export type GoBeyondPhase = "playing" | "clean_up" | "finished";

export type GoBeyondPlayer = { player: number, name: string, color: string, 
/**
 * PlayPoints now.
 */
points: number, 
/**
 * PlayPoints if the game ended now: plus the final bonus for what the player claims.
 */
projected: number, 
/**
 * `playing`, `resigned`, or `timed_out` (resigned for missing too many turns).
 */
status: string, 
/**
 * 1 for the first to resign, 2 for the second, ...
 */
resigned_order: number | null, 
/**
 * Empty nodes claimed now (the next turn's income, before any change).
 */
claimed: number, 
/**
 * Labels of the player's stones.
 */
stones: Array<string>, 
/**
 * The label of the node the player has reserved.
 */
reservation: string | null, 
/**
 * Clean-Up: labels of the stones given up, once chosen.
 */
surrendered: Array<string> | null, };

export type GoBeyondState = { map: MapSummary, rules: RulesSpec, phase: GoBeyondPhase, 
/**
 * Turns started so far.
 */
turn: number, 
/**
 * The player in phase 3, while play goes on.
 */
to_move: number | null, consecutive_passes: number, passes_to_end: number, players: Array<GoBeyondPlayer>, 
/**
 * Per node: the state.
 */
nodes: Array<GoBeyondNode>, 
/**
 * Per node: the stone's player (`null` when empty).
 */
board: Array<number | null>, 
/**
 * Per node: the claimant of an empty node (`null` if occupied or disputed).
 */
claims: Array<number | null>, 
/**
 * Per node: the player holding a reservation on it.
 */
reserved: Array<number | null>, 
/**
 * Clean-Up: players who still have to choose.
 */
awaiting_cleanup: Array<number>, outcome: Outcome | null, events: Array<GoBeyondEvent>, };

export type ClassicCount = { 
/**
 * Empty points surrounded by this player alone, dead stones' points included.
 */
territory?: number, 
/**
 * Living stones on the board.
 */
stones?: number, 
/**
 * Stones captured in play plus the opponents' dead stones in this player's territory.
 */
captures?: number, komi: number, total: number, };

export type ClassicEvent = { "event": "placed", player: Player, node: number, } | { "event": "captured", player: Player, owner: Player, nodes: Array<number>, } | { "event": "passed", player: Player, consecutive: number, } | { "event": "resigned", player: Player, } | { "event": "timed_out", player: Player, } | { "event": "scoring_started", } | { "event": "dead_marked", player: Player, nodes: Array<number>, proposed: boolean, } | { "event": "accepted", player: Player, 
/**
 * Accepted by running out of time.
 */
timeout: boolean, } | { "event": "resumed", player: Player, } | { "event": "game_over", outcome: Outcome, };

export type ClassicMove = { "type": "place", node?: number | null, at?: string | null, } | { "type": "pass" } | { "type": "resign" } | { "type": "timeout" } | { "type": "dead", nodes: Array<number>, at?: Array<string>, proposed?: boolean, } | { "type": "accept" } | { "type": "resume" };

export type ClassicPlayer = { player: number, name: string, color: string, 
/**
 * Labels of the player's stones.
 */
stones: Array<string>, prisoners: number, score: number, 
/**
 * The count (territory, stones or captures, komi) while the position is counted.
 */
count: ClassicCount | null, resigned: boolean, };

export type ClassicState = { map: MapSummary, rules: RulesSpec, 
/**
 * `playing`, `scoring` (the dead-stone phase) or `finished`.
 */
status: string, 
/**
 * The player to move, while the game is on.
 */
to_move: number | null, moves_played: number, consecutive_passes: number, players: Array<ClassicPlayer>, 
/**
 * Colour per node: `null` for empty, else the player number.
 */
board: Array<number | null>, 
/**
 * Per node, the player who owns it (stone or claimed empty region), else `null`; dead
 * stones marked (or agreed) count as removed.
 */
ownership: Array<number | null>, 
/**
 * Stones marked dead (the dead-stone phase) or agreed dead (after it).
 */
dead: Array<number>, 
/**
 * While the position is counted (the dead-stone phase, an end by passes): per node, the
 * player whose territory it is (an empty point, or a dead stone's), else `null`. Empty
 * otherwise.
 */
territory: Array<number | null>, 
/**
 * Moves as Go players number them: placements and passes, not free handicap stones.
 */
move_number: number, 
/**
 * Free handicap: stones Black still places before White's first move.
 */
handicap_left?: number, 
/**
 * The result as Go players write it (`W+8.5`, `B+R`, `W+T`, `Jigo`; two players only).
 */
result: string | null, 
/**
 * The dead-stone phase: seats that have accepted the marking.
 */
accepted: Array<number> | null, ko: string | null, hash: string, outcome: Outcome | null, };

export type TribalAnswer = "decline" | "reject" | "reject_and_replace";

export type TribalCard = "no_move" | "extra_move" | "reject" | "reject_and_replace" | "move_anywhere" | "pair_place" | "replace_any" | "move_two" | "move_three" | "points3" | "points5" | "trade1_for2" | "trade2_for5" | "trade3_for8";

export type TribalCardPlay = { card: TribalCard, placed: Array<number>, 
/**
 * Pair Place: the first node, waiting for its neighbour.
 */
pair: number | null, steps_left: number, };

export type TribalEvent = { "event": "rolled_off", player: Player, dice: [number, number], total: number, } | { "event": "order", order: Array<Player>, } | { "event": "start_chosen", player: Player, node: number, } | { "event": "rolled", player: Player, dice: [number, number], range: number, doubles: boolean, } | { "event": "placed", player: Player, node: number, handicap: boolean, } | { "event": "captured", player: Player | null, nodes: Array<number>, owners: Array<Player>, shares: Array<[Player, number]>, } | { "event": "passed", player: Player, automatic: boolean, consecutive: number, } | { "event": "forgone", player: Player, handicap: boolean, } | { "event": "surrender_offered", player: Player, to: Player, } | { "event": "surrender_accepted", player: Player, to: Player, previous: Player | null, } | { "event": "surrender_declined", player: Player, to: Player, } | { "event": "independent", player: Player, from: Player, } | { "event": "drew", player: Player, doubles: boolean, } | { "event": "returned", player: Player, } | { "event": "discarded", player: Player, card: TribalCard, } | { "event": "card_played", player: Player, card: TribalCard, } | { "event": "moved", player: Player, from: number, to: number, } | { "event": "lifted", player: Player, node: number, } | { "event": "traded", player: Player, with: Player, gave: Array<number>, took: Array<number>, } | { "event": "rejected", player: Player, mover: Player, card: TribalCard, } | { "event": "not_rejected", mover: Player, } | { "event": "timed_out", player: Player, } | { "event": "clean_up_started" } | { "event": "dead_chosen", player: Player, nodes: Array<number>, } | { "event": "dead_removed", owner: Player, node: number, to: Player | null, } | { "event": "filled_in", team: Player, territory: number, prisoners: number, left: number, overflow: Array<[Player, number]>, } | { "event": "game_over", ranking: Array<Player>, scores: Array<number>, };

export type TribalMove = { "type": "place", node?: number | null, at?: string | null, } | { "type": "pass" } | { "type": "roll" } | { "type": "forgo" } | { "type": "choose_start", node?: number | null, at?: string | null, } | { "type": "surrender", to: number, } | { "type": "accept" } | { "type": "decline" } | { "type": "independence" } | { "type": "resign" } | { "type": "timeout" } | { "type": "dice", dice: [number, number], } | { "type": "dead", nodes?: Array<number>, at?: Array<string>, } | { "type": "cleanup_timeout" } | { "type": "play_card", card: TribalCard, } | { "type": "move_stone", from?: number | null, from_at?: string | null, node?: number | null, at?: string | null, } | { "type": "trade", with: number, } | { "type": "react", answer: TribalAnswer | null, } | { "type": "discard", card: TribalCard, } | { "type": "return", card: TribalCard | null, } | { "type": "draw", card: TribalCard | null, };

export type TribalPlayer = { player: number, name: string, color: string, 
/**
 * The node of the start point, once chosen.
 */
start: number | null, 
/**
 * The faction occupying this one.
 */
occupier: number | null, 
/**
 * Prisoners held, per colour (seat): `held[c]` stones of seat `c`.
 */
held: Array<number>, 
/**
 * Stones left in supply, when limited.
 */
supply: number | null, 
/**
 * Ran out of time: passes on every turn.
 */
gone: boolean, 
/**
 * The roll-off's totals.
 */
rolls: Array<number>, stones: Array<string>, 
/**
 * Cards in hand (their faces are the holder's secret).
 */
cards: number, 
/**
 * Points banked by points cards.
 */
banked: number, };

export type TribalReaction = { mover: number, 
/**
 * Where the move put stones.
 */
placed: Array<number>, 
/**
 * The viewer holds a Reject card and has not answered yet: only they are prompted (the
 * window runs its full length for everyone else).
 */
asked: boolean, can_reject: boolean, can_replace: boolean, };

export type TribalState = { map: MapSummary, rules: RulesSpec, 
/**
 * `roll_off`, `choose_start`, `handicap`, `playing`, `card` (a card's placements),
 * `reaction` (other players may reject the last move), `replace`, `discard`,
 * `surrender_offer`, `clean_up`, `finished`.
 */
phase: string, 
/**
 * The seat that must act (the player to move, or the one answering an offer). In a
 * reaction window: the viewer while they hold a Reject card and have not answered (who
 * else may answer is not shown).
 */
to_move: number | null, 
/**
 * The seat whose dice the server rolls next.
 */
rolling: number | null, 
/**
 * This turn's roll, once made: the two dice and the range.
 */
dice: [number, number] | null, range: number | null, 
/**
 * Per node, whether the player to move may reach it with the range in force (their start
 * point and stones within range; Extra Move's second stone: only where the card allows
 * it); empty when nobody is placing.
 */
reachable: Array<boolean>, consecutive_passes: number, players: Array<TribalPlayer>, 
/**
 * Per node: the stone's player (`null` when empty).
 */
board: Array<number | null>, 
/**
 * The start points still to choose from (while choosing).
 */
start_choices: Array<number>, 
/**
 * A surrender offer waiting for its answer: from, to.
 */
offer: [number, number] | null, 
/**
 * The handicap stones still to come, by seat, in order.
 */
handicap_left: Array<number>, 
/**
 * Clean-Up: players who still have to name their dead stones.
 */
awaiting_cleanup: Array<number>, 
/**
 * Whether the game has cards.
 */
cards: boolean, 
/**
 * The viewer's hand (a seat's own view only).
 */
hand: Array<TribalCard> | null, 
/**
 * The cards of the hand the viewer may play now.
 */
playable: Array<TribalCard>, 
/**
 * Cards left to draw, and the face-up discard pile.
 */
to_draw: number, discards: Array<TribalCard>, 
/**
 * The card being played: its placements so far and how many remain.
 */
card_play: TribalCardPlay | null, 
/**
 * A reaction window: whose move may be rejected, and what the viewer may answer.
 */
reaction: TribalReaction | null, 
/**
 * Reject and Replace: the nodes the rejecter may take.
 */
replace: Array<number>, outcome: Outcome | null, events: Array<TribalEvent>, };

export type GengoPlayer = { player: number, name: string, color: string, 
/**
 * Labels of the player's stones.
 */
stones: Array<string>, 
/**
 * Opposing stones this player captured.
 */
prisoners: number, 
/**
 * This player's stones removed (captured, or by their own suicide and friendly fire).
 */
lost: number, 
/**
 * Stones on the board, with komi for White.
 */
stone_score: number, 
/**
 * Area, with komi for White.
 */
area_score: number, 
/**
 * The score that decides (by the `scoring` setting).
 */
score: number, resigned: boolean, };

export type GengoState = { map: MapSummary, rules: RulesSpec, 
/**
 * `playing` or `finished`.
 */
status: string, to_move: number | null, 
/**
 * Turns played (plays and passes).
 */
moves_played: number, turn_limit: number, consecutive_passes: number, players: Array<GengoPlayer>, 
/**
 * The stone on each space: `null` or the player.
 */
board: Array<number | null>, 
/**
 * Who overlaps each space: `null` nobody, 0 or 1 one player, 2 both.
 */
cover: Array<number | null>, 
/**
 * Who each space counts for under area scoring (`null`: neutral or nobody's).
 */
area: Array<number | null>, 
/**
 * Every group with its liberties.
 */
groups: Array<GroupView>, 
/**
 * For the player to move, why each space cannot take a stone (`null`: it can): `stone`,
 * `overlap`, `ko`, `superko`, `suicide` or `friendly_fire`.
 */
blocked: Array<string | null>, 
/**
 * A stone's disc radius in map units: half the distance to the nearest space another
 * stone may take.
 */
stone_radius: number, 
/**
 * The stone that may not be recaptured alone on this turn.
 */
ko: string | null, hash: string, outcome: Outcome | null, };

export type GoEvent = { "event": "placed", player: Player, node: number, } | { "event": "captured", player: Player, owner: Player, nodes: Array<number>, } | { "event": "passed", player: Player, consecutive: number, } | { "event": "resigned", player: Player, } | { "event": "timed_out", player: Player, } | { "event": "game_over", outcome: Outcome, };

export type GoMove = { "type": "place", node?: number | null, at?: string | null, } | { "type": "pass" } | { "type": "resign" } | { "type": "timeout" };

export type GroupView = { player: number, stones: Array<number>, liberties: Array<number>, };

export type WayColour = "black" | "white";

export type WayEvent = { "event": "pie_stone", player: Player, node: number, colour: WayColour, } | { "event": "side_chosen", player: Player, colour: WayColour, } | { "event": "dropped", player: Player, node: number, } | { "event": "moved", player: Player, from: number, to: number, count: number, landing: WayLanding, } | { "event": "captured", player: Player, from: number, to: number, count: number, removed: number, lost: number, } | { "event": "contracts_raised", contracts: [number, number], } | { "event": "passed", player: Player, } | { "event": "resigned", player: Player, } | { "event": "timed_out", player: Player, } | { "event": "game_over", outcome: Outcome, };

export type WayLanding = "empty" | "stack" | "capture" | "push" | "push_capture";

export type WayMove = { "type": "pie_stone", node?: number | null, at?: string | null, colour: WayColour, } | { "type": "choose_side", colour: WayColour, } | { "type": "drop", node?: number | null, at?: string | null, } | { "type": "move", from?: number | null, from_at?: string | null, to?: number | null, to_at?: string | null, count?: number | null, dir?: number | null, } | { "type": "end_turn" } | { "type": "pass" } | { "type": "resign" } | { "type": "timeout" };

export type WayMoveView = { from: number, count: number, dir: number, to: number, landing: WayLanding, };

export type WayPlayer = { player: number, name: string, 
/**
 * The seat's colour (seat 0 is Black until the pie's choice).
 */
colour: WayColour, 
/**
 * The colour's name, `Black` or `White`.
 */
color: string, captures: number, 
/**
 * The contract now (The Way of Go), raised when both reach theirs in one round.
 */
contract: number | null, 
/**
 * Stones on the board, all stacks counted.
 */
stone_count: number, 
/**
 * Labels of the nodes holding the seat's stacks.
 */
stones: Array<string>, resigned: boolean, };

export type WayState = { map: MapSummary, rules: RulesSpec, 
/**
 * `pie`, `choose_side`, `playing` (start of a turn), `drop_after_move`,
 * `move_after_drop`, or `finished`.
 */
phase: string, status: string, to_move: number | null, 
/**
 * Regular turns played (the pie not counted).
 */
turns: number, turn_limit: number, players: Array<WayPlayer>, 
/**
 * The seat whose stack is on each node (`null`: empty); `colour` says which colour.
 */
board: Array<number | null>, 
/**
 * Forced passes in a row (two end the game).
 */
consecutive_passes: number, 
/**
 * The colour of the stack on each node (`null`: empty).
 */
colour: Array<WayColour | null>, height: Array<number>, 
/**
 * For each node, the range of each top part of its stack: `ranges[n][k-1]` is how far the
 * top `k` stones move (one entry for a single stone).
 */
ranges: Array<Array<number>>, 
/**
 * Who attacks each empty node: bit 0 Black, bit 1 White (BeSiege; all 0 in The Way of Go).
 */
attacked: Array<number>, 
/**
 * Nodes where the player to move may drop now.
 */
drops: Array<number>, 
/**
 * The moves the player to move may make now.
 */
moves: Array<WayMoveView>, 
/**
 * The node dropped this turn (its piece may not move after).
 */
dropped: number | null, hash: string, outcome: Outcome | null, };

export type CapturePlayer = { player: number, name: string, color: string, captures: number, 
/**
 * Labels of the player's stones.
 */
stones: Array<string>, resigned: boolean, };

export type CaptureState = { map: MapSummary, rules: RulesSpec, 
/**
 * `playing` or `finished`.
 */
phase: string, 
/**
 * The player to move, while the game is on.
 */
to_move: number | null, 
/**
 * Captured stones that win.
 */
target: number, turns_played: number, turn_limit: number, consecutive_passes: number, players: Array<CapturePlayer>, 
/**
 * Colour per node: `null` for empty, else the player number.
 */
board: Array<number | null>, 
/**
 * Per node, the liberties of the group standing there (`null` for empty nodes): a stone
 * in atari (1) is one capture away.
 */
liberties: Array<number | null>, outcome: Outcome | null, };

/** Every rule system's name. */
export type SystemName = 'gobeyond' | 'classic' | 'tribal' | 'gengo' | 'way-of-go' | 'besiege' | 'capture';

/** Each system's state, input and event types, by name. */
export type SystemTypes = {
  'gobeyond': { state: GoBeyondState; move: GoBeyondMove; event: GoBeyondEvent };
  'classic': { state: ClassicState; move: ClassicMove; event: ClassicEvent };
  'tribal': { state: TribalState; move: TribalMove; event: TribalEvent };
  'gengo': { state: GengoState; move: GoMove; event: GoEvent };
  'way-of-go': { state: WayState; move: WayMove; event: WayEvent };
  'besiege': { state: WayState; move: WayMove; event: WayEvent };
  'capture': { state: CaptureState; move: GoMove; event: GoEvent };
};

export type AnyState = SystemTypes[SystemName]['state'];
export type AnyMove = SystemTypes[SystemName]['move'];
export type AnyEvent = SystemTypes[SystemName]['event'];
