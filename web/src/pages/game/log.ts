// The event log (lines are only ever added, except when a sync rebuilds it) and the chat.

import { api } from '../../api';
import { clear, h } from '../../dom';
import type { GameContext } from './context';

export function renderLog(ctx: GameContext) {
  const lines = ctx.model.log;
  const el = ctx.el.log;
  if (el.childElementCount > lines.length) clear(el);
  for (let i = el.childElementCount; i < lines.length; i++) el.append(h('li', {}, lines[i].text));
  el.scrollTop = el.scrollHeight;
}

/** Sends the chat field's text. */
export function sendChat(ctx: GameContext) {
  const text = ctx.el.chatInput.value.trim();
  if (!text) return;
  ctx.socket.chat(ctx.id, text);
  ctx.el.chatInput.value = '';
}

export function chatLine(ctx: GameContext, from: string, text: string) {
  const el = ctx.el.chatLog;
  el.append(h('li', {}, h('strong', {}, from), ': ', text));
  el.scrollTop = el.scrollHeight;
}

/** What was said before the page opened. */
export async function loadChat(ctx: GameContext) {
  const chat = await api.chat(ctx.id).catch(() => []);
  for (const c of chat) ctx.el.chatLog.append(h('li', {}, h('strong', {}, c.from), ': ', c.text));
}
