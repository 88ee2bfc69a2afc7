// Moderation in players' words, and the few rules the pages follow: which standing shows a
// banner, what each action needs, what a report's context shows. Pure: tested in
// test/moderation.test.ts.

import type { ActionBody, ActionKind, QuotedLine, ReportReason, Standing } from './types';

export const REASONS: { value: ReportReason; label: string }[] = [
  { value: 'abuse', label: 'Abuse or harassment' },
  { value: 'cheating', label: 'Cheating (e.g. computer help)' },
  { value: 'name', label: 'Offensive name' },
  { value: 'spam', label: 'Spam' },
  { value: 'other', label: 'Something else' },
];

export function reasonLabel(reason: string): string {
  return REASONS.find((r) => r.value === reason)?.label ?? reason;
}

/** What an action asks the moderator for besides a reason. */
export type ActionNeed = 'days' | 'name' | 'chat' | 'game';

export interface ActionInfo {
  kind: ActionKind;
  /** The button's label. */
  label: string;
  /** The past tense, for the audit log ("muted" someone). */
  done: string;
  /** The player follows the past tense with "of" ("deleted a chat line of bob"). */
  of?: true;
  /** What the player reads on their account page. */
  mine: string;
  needs: ActionNeed | null;
  /** Heavy actions are drawn in the danger colour. */
  heavy: boolean;
}

export const ACTIONS: ActionInfo[] = [
  { kind: 'warn', label: 'Warn', done: 'warned', mine: 'You were warned', needs: null, heavy: false },
  { kind: 'mute', label: 'Mute', done: 'muted', mine: 'Muted', needs: 'days', heavy: false },
  { kind: 'suspend', label: 'Suspend', done: 'suspended', mine: 'Suspended', needs: 'days', heavy: true },
  { kind: 'ban', label: 'Ban', done: 'banned', mine: 'Banned', needs: null, heavy: true },
  { kind: 'rename', label: 'Rename', done: 'renamed', mine: 'Your name was changed', needs: 'name', heavy: false },
  { kind: 'delete_chat', label: 'Delete the chat line', done: 'deleted a chat line', of: true, mine: 'A chat line of yours was deleted', needs: 'chat', heavy: false },
  { kind: 'void_rating', label: "Void the game's rating", done: 'voided the rating of a game', of: true, mine: "A game's rating was voided", needs: 'game', heavy: false },
  { kind: 'unmute', label: 'Unmute', done: 'unmuted', mine: 'Mute lifted', needs: null, heavy: false },
  { kind: 'unsuspend', label: 'Lift suspension', done: 'lifted the suspension of', mine: 'Suspension lifted', needs: null, heavy: false },
  { kind: 'unban', label: 'Unban', done: 'unbanned', mine: 'Ban lifted', needs: null, heavy: false },
];

export function actionInfo(kind: string): ActionInfo | undefined {
  return ACTIONS.find((a) => a.kind === kind);
}

/** Actions the page does not know (one added later) read as the server's word. */
const plainWord = (kind: string) => kind.replace(/_/g, ' ');

/** What the log says of lines no button makes (a role granted, a report closed). */
const OTHER_DONE: Record<string, string> = { grant: 'granted a role to', close_report: 'closed a report' };

/** "muted bob", "deleted a chat line of bob", "closed a report". */
export function didText(action: string, user: string | null): string {
  const info = actionInfo(action);
  const done = OTHER_DONE[action] ?? info?.done ?? plainWord(action);
  return `${done}${user ? `${info?.of ? ' of' : ''} ${user}` : ''}`;
}

/** "until 27 Nov 2026, 14:05", for actions that run out. */
const untilText = (until: number | null, date: (ms: number) => string) => (until === null ? '' : ` until ${date(until)}`);

/** An audit log line's words: "ada muted bob until 27 Nov 2026, 14:05". */
export function logHeadline(e: { moderator: string | null; user: string | null; action: string; until_ms: number | null }, date = dateText): string {
  return `${e.moderator ?? 'A moderator'} ${didText(e.action, e.user)}${untilText(e.until_ms, date)}`;
}

/** An account page line's words: "Muted until 27 Nov 2026, 14:05". */
export function myHeadline(e: { action: string; until_ms: number | null }, date = dateText): string {
  const mine = e.action === 'grant' ? 'Your role changed' : (actionInfo(e.action)?.mine ?? plainWord(e.action));
  return `${mine}${untilText(e.until_ms, date)}`;
}

/** The days a mute or suspension lasts, from the form's field: a whole number of days from 1
 *  to ten years, or null for anything else. */
export function parseDays(text: string): number | null {
  const n = Number(text.trim());
  return Number.isInteger(n) && n >= 1 && n <= 3650 ? n : null;
}

/** What the moderator filled in for an action. */
export interface ActionForm {
  reason: string;
  days?: number;
  name?: string;
}

/** What an action is about: its player, and the report's chat line and game. */
export interface ActionTarget {
  user: string | null;
  chat: number | null;
  game: number | null;
  report: number | null;
}

/** The body of `POST /api/moderation/actions`, or why it cannot be sent (a missing reason,
 *  a chat line or game the action needs and the report lacks). */
export function actionBody(kind: ActionKind, target: ActionTarget, form: ActionForm): ActionBody | string {
  const info = actionInfo(kind);
  const reason = form.reason.trim();
  if (!reason) return 'Give a reason: the player reads it.';
  const body: ActionBody = { action: kind, reason };
  if (target.user) body.user = target.user;
  if (target.report !== null) body.report = target.report;
  switch (info?.needs) {
    case 'days':
      if (form.days === undefined) return 'Give a number of days (1 or more).';
      body.days = form.days;
      break;
    case 'name':
      if (!form.name?.trim()) return 'Give the new name.';
      body.name = form.name.trim();
      break;
    case 'chat':
      if (target.chat === null) return 'This report names no chat line.';
      body.chat = target.chat;
      break;
    case 'game':
      if (target.game === null) return 'This report names no game.';
      body.game = target.game;
      break;
  }
  if (!body.user && info?.needs !== 'chat' && info?.needs !== 'game') return 'This report names no player.';
  return body;
}

/** One line of a standing banner. */
export interface StandingLine {
  kind: 'banned' | 'suspended' | 'muted';
  text: string;
}

/** What the standing banner says, most serious first (the reason is said once, under them); a
 *  mute or suspension that has run out says nothing (the server may not have cleared it yet). */
export function standingLines(s: Standing | undefined, now: number, date: (ms: number) => string = dateText): StandingLine[] {
  if (!s) return [];
  const out: StandingLine[] = [];
  if (s.banned) out.push({ kind: 'banned', text: 'Your account is banned.' });
  if (s.suspended_until_ms !== null && s.suspended_until_ms > now) {
    out.push({ kind: 'suspended', text: `Suspended until ${date(s.suspended_until_ms)}: you cannot play.` });
  }
  if (s.muted_until_ms !== null && s.muted_until_ms > now) {
    out.push({ kind: 'muted', text: `Muted until ${date(s.muted_until_ms)}: you cannot chat.` });
  }
  return out;
}

/** "27 Nov, 14:05" this year, "27 Nov 2027, 14:05" another. */
export function dateText(ms: number, now = Date.now()): string {
  const at = new Date(ms);
  const year = at.getFullYear() === new Date(now).getFullYear() ? undefined : 'numeric';
  return at.toLocaleString(undefined, { day: 'numeric', month: 'short', year, hour: '2-digit', minute: '2-digit' });
}

/** A quoted line of a report's context, marked when it is the reported one. */
export interface ContextLine extends QuotedLine {
  reported: boolean;
}

/** The chat a moderator reads around a report: the context in time order, the reported line
 *  marked (and added, should the context leave it out). */
export function reportContext(context: QuotedLine[], reported: QuotedLine | null): ContextLine[] {
  const lines = context.map((l) => ({ ...l, reported: reported !== null && l.id === reported.id }));
  if (reported && !lines.some((l) => l.reported)) lines.push({ ...reported, reported: true });
  return lines.sort((a, b) => a.at_ms - b.at_ms || a.id - b.id);
}
