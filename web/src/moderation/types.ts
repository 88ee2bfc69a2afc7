// The moderation API's shapes (/tmp/mod/contract.md, issue 46). Declared here until the server's
// types are generated into protocol.ts; the names follow the contract's fields.

export type Role = 'player' | 'moderator' | 'admin';

export type ReportReason = 'abuse' | 'cheating' | 'name' | 'spam' | 'other';

export type ActionKind =
  | 'warn' | 'mute' | 'unmute' | 'suspend' | 'unsuspend' | 'ban' | 'unban'
  | 'rename' | 'delete_chat' | 'void_rating';

/** What stands against an account now (nothing: nulls and false). */
export interface Standing {
  muted_until_ms: number | null;
  suspended_until_ms: number | null;
  banned: boolean;
  reason: string | null;
}

/** `GET /api/me` with the moderation fields (the user is null for nobody signed in). */
export interface MeWithStanding {
  user: { id: number; name: string; kind: string } | null;
  role?: Role;
  standing?: Standing;
}

/** A chat line as a report quotes it. */
export interface QuotedLine {
  id: number;
  from: string | null;
  text: string;
  at_ms: number;
}

export interface Report {
  id: number;
  reporter: string;
  user: string | null;
  game: number | null;
  chat: QuotedLine | null;
  /** Lines around the reported one, or the reported game's last lines. */
  context: QuotedLine[];
  reason: ReportReason;
  text: string;
  created_ms: number;
  status: 'open' | 'closed';
  closed_by: string | null;
  note: string | null;
}

/** One line of the moderators' audit log. */
export interface AuditEntry {
  id: number;
  moderator: string;
  user: string | null;
  action: string;
  reason: string;
  detail: string | null;
  until_ms: number | null;
  at_ms: number;
}

/** What moderators did to the reader's account (no moderator names). */
export interface MyEntry {
  id: number;
  action: string;
  reason: string;
  detail: string | null;
  until_ms: number | null;
  at_ms: number;
}

export interface ReportBody {
  user?: string;
  game?: number;
  chat?: number;
  reason: ReportReason;
  text: string;
}

export interface ActionBody {
  action: ActionKind;
  user?: string;
  reason: string;
  days?: number;
  name?: string;
  chat?: number;
  game?: number;
  report?: number;
}
