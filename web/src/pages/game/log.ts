// The event log (lines are only ever added, except when a sync rebuilds it) and the chat.

import { api } from '../../api';
import { clear, h, toast } from '../../dom';
import type { ChatHistory, ChatLine } from '../../protocol';
import { openReport } from '../../moderation/report';
import type { GameContext } from './context';

export function renderLog(ctx: GameContext) {
  const lines = ctx.model.log;
  const el = ctx.el.log;
  if (el.childElementCount > lines.length) clear(el);
  for (let i = el.childElementCount; i < lines.length; i++) el.append(h('li', {}, lines[i].text));
  el.scrollTop = el.scrollHeight;
}

/** How long after sending a line a refusal is taken as the line's (the socket's chat has no
 *  request id to match). */
const CHAT_ANSWER_MS = 5000;

/** Sends the chat field's text. */
export function sendChat(ctx: GameContext) {
  const text = ctx.el.chatInput.value.trim();
  if (!text) return;
  ctx.socket.chat(ctx.id, text);
  ctx.chatSentAt = Date.now();
  ctx.el.chatInput.value = '';
}

/** A refusal the server sent without a request id: a chat line's (the rate limit, no right to
 *  speak) or the game's. Every one is shown; a line just sent also gets its reason in the chat. */
export function refused(ctx: GameContext, error: string) {
  toast(error, 'error');
  if (ctx.chatSentAt !== null && Date.now() - ctx.chatSentAt < CHAT_ANSWER_MS) {
    const el = ctx.el.chatLog;
    el.append(h('li', { class: 'chat-refused error' }, `Not sent: ${error}`));
    el.scrollTop = el.scrollHeight;
  }
}

/** The chat box for whoever may speak (players with the players, others with the other
 *  spectators); for whoever may not, a line saying why. */
export function renderChatForm(ctx: GameContext) {
  const seated = ctx.seat() !== null;
  const may = ctx.mayChat || seated;
  ctx.el.chatForm.hidden = !may;
  ctx.el.chatClosed.hidden = may;
  ctx.el.chatInput.placeholder = seated || ctx.chatChannel !== 'spectators'
    ? 'Say something'
    : 'Chat with spectators';
  ctx.el.chatInput.title = seated ? '' : 'Spectators talk among themselves: the players read this only once the game is over.';
}

/** "14:05" for a line of today, "25 Nov 14:05" for an older one. */
export function chatTime(atMs: number, now = Date.now()): string {
  const at = new Date(atMs);
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === new Date(now).toDateString()
    ? time
    : `${at.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${time}`;
}

/** One chat line: its time, then the author's words, a spectator's marked as such, or the
 *  table's own line (joined, undo, rematch, time-out) in italics. Another player's line ends
 *  with a small flag that reports it. */
function chatItem(ctx: GameContext, line: ChatLine): HTMLElement {
  const time = h('time', { class: 'chat-time muted', datetime: new Date(line.at_ms).toISOString() }, chatTime(line.at_ms));
  if (line.channel === 'system' || line.from === null) return h('li', { class: 'chat-system', 'data-chat': line.id }, time, ' ', h('em', {}, line.text));
  const who = line.channel === 'spectators'
    ? [h('strong', {}, line.from), h('span', { class: 'tag' }, 'spectator')]
    : [h('strong', {}, line.from)];
  const from = line.from;
  const flag = from !== ctx.user.name
    ? h('button', {
        type: 'button', class: 'chat-report', title: `Report this line of ${from}`, 'aria-label': `Report this line of ${from}`,
        onclick: () => openReport({ user: from, game: ctx.id, chat: line.id, quote: { from, text: line.text } }),
      }, '⚑')
    : null;
  return h('li', { class: `chat-${line.channel}`, 'data-chat': line.id }, time, ' ', ...who, ': ', h('span', { class: 'chat-text' }, line.text), flag);
}

export function chatLine(ctx: GameContext, line: ChatLine) {
  const el = ctx.el.chatLog;
  el.append(chatItem(ctx, line));
  el.scrollTop = el.scrollHeight;
}

/** A moderator deleted a line: it leaves every open chat. */
export function chatDeleted(ctx: GameContext, id: number) {
  ctx.el.chatLog.querySelector(`li[data-chat="${id}"]`)?.remove();
}

/** What was said before the page opened, and whether and where the viewer may speak. */
export async function loadChat(ctx: GameContext) {
  const history: ChatHistory = await api.chat(ctx.id)
    .catch(() => ({ chat: [], may_chat: false, channel: null, why_not: 'the chat could not be loaded' }));
  ctx.mayChat = history.may_chat;
  ctx.chatChannel = history.channel;
  if (history.why_not) ctx.el.chatClosed.textContent = `You read this chat: ${history.why_not}.`;
  for (const c of history.chat) ctx.el.chatLog.append(chatItem(ctx, c));
}
