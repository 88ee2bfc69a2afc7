// HTTP calls to the server (docs/api.md). Errors carry the server's message.

import type { GameInfo, GameSummary, MapView, User } from './types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    const msg = (data as { error?: string } | null)?.error ?? `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, msg);
  }
  return data as T;
}

export const api = {
  me: () => call<{ user: User }>('GET', '/api/me').then((r) => r.user),
  guest: () => call<{ user: User }>('POST', '/api/guest').then((r) => r.user),
  login: (name: string, password: string) =>
    call<{ user: User }>('POST', '/api/login', { name, password }).then((r) => r.user),
  register: (name: string, password: string) =>
    call<{ user: User }>('POST', '/api/register', { name, password }).then((r) => r.user),
  logout: () => call<unknown>('POST', '/api/logout'),
  games: (query: string) => call<{ games: GameSummary[] }>('GET', `/api/games?${query}`).then((r) => r.games),
  game: (id: number) => call<GameInfo>('GET', `/api/games/${id}`),
  create: (body: unknown) => call<{ game: GameInfo; invite: string | null }>('POST', '/api/games', body),
  join: (id: number, body: { seat?: number; invite?: string } = {}) =>
    call<{ seat: number; game: GameInfo }>('POST', `/api/games/${id}/join`, body),
  leave: (id: number) => call<unknown>('POST', `/api/games/${id}/leave`),
  gameMap: (id: number) => call<MapView>('GET', `/api/games/${id}/map`),
  preview: (spec: string) => call<MapView>('GET', `/api/maps/preview?spec=${encodeURIComponent(spec)}`),
  stateAt: (id: number, at: number) =>
    call<{ at: number; total: number; action: unknown; state: import('./types').GameState }>(
      'GET',
      `/api/games/${id}/state?at=${at}`,
    ),
  chat: (id: number) =>
    call<{ chat: { from: string; text: string; at_ms: number }[] }>('GET', `/api/games/${id}/chat`).then((r) => r.chat),
  rules: () => call<{ systems: RuleSystem[] }>('GET', '/api/rules').then((r) => r.systems),
  rulesDoc: async (system: string) => {
    const res = await fetch(`/api/rules/${encodeURIComponent(system)}/doc`);
    if (!res.ok) throw new ApiError(res.status, `no rules page for ${system}`);
    return res.text();
  },
};

export interface RuleSystem {
  name: string;
  title: string;
  about: string;
  defaults: Record<string, unknown>;
  presets?: { name: string; about: string; settings: Record<string, unknown> }[];
  /** One description per setting, for forms. */
  settings?: SettingInfo[];
  /** The system times its own turns (then a game has no time control). */
  own_clock?: boolean;
}

export interface SettingInfo {
  name: string;
  kind: 'integer' | 'number' | 'choice' | 'integers' | 'optional_integer';
  default: unknown;
  help: string;
  choices?: string[];
  min?: number;
  max?: number;
}

/** Signs in as a guest when nobody is signed in. */
export async function ensureUser(): Promise<User> {
  try {
    return await api.me();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return api.guest();
    throw e;
  }
}
