// The event log (lines are only ever added, except when a sync rebuilds it) and the chat.

import { api } from '../../api';
import { clear, h, toast } from '../../dom';
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

/** The chat box for whoever may speak; for other spectators, a line saying who may. */
export function renderChatForm(ctx: GameContext) {
  const creator = ctx.model.info?.creator === ctx.user.id;
  const may = ctx.mayChat || creator || ctx.seat() !== null;
  ctx.el.chatForm.hidden = !may;
  ctx.el.chatClosed.hidden = may;
}

export function chatLine(ctx: GameContext, from: string, text: string) {
  const el = ctx.el.chatLog;
  el.append(h('li', {}, h('strong', {}, from), ': ', text));
  el.scrollTop = el.scrollHeight;
}

/** What was said before the page opened, and whether the viewer may speak. */
export async function loadChat(ctx: GameContext) {
  const history = await api.chat(ctx.id).catch(() => ({ chat: [], may_chat: false }));
  ctx.mayChat = history.may_chat;
  for (const c of history.chat) ctx.el.chatLog.append(h('li', {}, h('strong', {}, c.from), ': ', c.text));
}
