// The one WebSocket of a page: reconnects by itself with backoff, re-sends `watch` with the last
// sequence number it has for each game, and acknowledges actions with promises.

import type { ServerMessage } from './types';

type Listener = (msg: ServerMessage) => void;

export type Status = 'connecting' | 'open' | 'closed';

export class Socket {
  private ws: WebSocket | null = null;
  private listeners = new Set<Listener>();
  private statusListeners = new Set<(s: Status) => void>();
  private watched = new Map<number, () => number>();
  private pending = new Map<number, { resolve: (seq: number) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private retry = 0;
  private closedByUs = false;
  private queue: string[] = [];
  status: Status = 'connecting';

  constructor(private readonly url = defaultUrl()) {
    this.open();
    window.addEventListener('online', () => this.reconnectNow());
  }

  private open() {
    this.setStatus('connecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.setStatus('open');
      for (const [game, since] of this.watched) this.sendNow({ type: 'watch', game, since: since() });
      for (const q of this.queue.splice(0)) ws.send(q);
    };
    ws.onmessage = (ev) => {
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if ((msg.type === 'ack' || msg.type === 'error') && typeof msg.id === 'number' && this.pending.has(msg.id)) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.type === 'ack') p?.resolve(msg.seq);
        else p?.reject(new ActionError(msg.error, msg.code ?? null));
      }
      for (const l of this.listeners) l(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      // Actions in flight have an unknown fate: the resync shows whether they landed.
      for (const p of this.pending.values()) p.reject(new Error('connection lost; the game will resync'));
      this.pending.clear();
      if (this.closedByUs) return this.setStatus('closed');
      this.setStatus('connecting');
      const delay = Math.min(10_000, 300 * 2 ** this.retry++) * (0.75 + Math.random() / 2);
      setTimeout(() => this.open(), delay);
    };
  }

  private reconnectNow() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return;
    this.ws?.close();
  }

  private setStatus(s: Status) {
    this.status = s;
    for (const l of this.statusListeners) l(s);
  }

  private sendNow(msg: unknown) {
    const text = JSON.stringify(msg);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.queue.push(text);
  }

  onMessage(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  onStatus(l: (s: Status) => void): () => void {
    this.statusListeners.add(l);
    l(this.status);
    return () => this.statusListeners.delete(l);
  }

  /** Follows a game; `since` gives the last sequence number held (also after reconnects). */
  watch(game: number, since: () => number) {
    this.watched.set(game, since);
    if (this.ws?.readyState === WebSocket.OPEN) this.sendNow({ type: 'watch', game, since: since() });
  }

  /** Asks for a full sync (after a gap in the sequence numbers). */
  resync(game: number) {
    this.sendNow({ type: 'watch', game });
  }

  unwatch(game: number) {
    this.watched.delete(game);
    this.sendNow({ type: 'unwatch', game });
  }

  /** Sends an action meant to follow action number `after` (the last one this client holds);
   * resolves with its sequence number once committed, rejects with the reason. */
  act(game: number, action: unknown, after?: number): Promise<number> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error('not connected: reconnecting…'));
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.sendNow({ type: 'act', game, action, id, ...(after === undefined ? {} : { after }) });
    });
  }

  chat(game: number, text: string) {
    this.sendNow({ type: 'chat', game, text });
  }

  close() {
    this.closedByUs = true;
    this.ws?.close();
  }
}

/** A refused action, with the server's code: `stale` (the game moved on before it arrived)
 * and `unknown` (its fate is unknown) mean the game must be looked at again. */
export class ActionError extends Error {
  constructor(message: string, readonly code: string | null) {
    super(message);
  }
}

function defaultUrl(): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/api/ws`;
}
