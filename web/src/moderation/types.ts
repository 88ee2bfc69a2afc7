// The moderation API's shapes (docs/api.md, issue 46): what the server answers comes generated
// in protocol.ts; what it takes (request bodies) and the closed lists of words are declared
// here.

import type { AuditEntry, MeBody, ModChatLine, ReportView, StandingView } from '../protocol';

export type Role = 'player' | 'moderator' | 'admin';

export type ReportReason = 'abuse' | 'cheating' | 'name' | 'spam' | 'other';

export type ActionKind =
  | 'warn' | 'mute' | 'unmute' | 'suspend' | 'unsuspend' | 'ban' | 'unban'
  | 'rename' | 'delete_chat' | 'void_rating';

/** The role and what stands against an account now (nothing: nulls and false). */
export type Standing = StandingView;

/** `GET /api/me`: the user, their role and standing (both null for nobody signed in). */
export type MeWithStanding = MeBody;

/** A chat line as a report quotes it. */
export type QuotedLine = ModChatLine;

export type Report = ReportView;

/** A line of the audit log; on one's own account page it names no moderator. */
export type { AuditEntry };

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
