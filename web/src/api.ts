// HTTP calls to the server (docs/api.md). Errors carry the server's message.

import type {
  ChatHistory,
  ErrorBody,
  GameCreated,
  GameInfo,
  GameList,
  GamePage,
  InviteBody,
  Joined,
  MeBody,
  OkBody,
  PlayerProfile,
  PlayersFound,
  RuleSystemView,
  RuleSystems,
  SettingInfo,
  StateAt,
  Tell,
  User,
  UserBody,
  VacationView,
} from './protocol';
import type { GameState, MapView } from './types';
import type { Analysed, GameRecord, NodeRef, PositionReview, ReviewStatus, ReviewTree, TreeComment, VariationNode } from './analysis_types';

export type RuleSystem = RuleSystemView;
export type { SettingInfo };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The rule system's refusal code, when it refused. */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
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
    const err = data as Partial<ErrorBody> | null;
    throw new ApiError(res.status, err?.error ?? `${res.status} ${res.statusText}`, err?.code ?? null);
  }
  return data as T;
}

/** A designers' lab report the server keeps (`gobeyond lab ... --html`). */
export interface LabReport {
  name: string;
  title: string;
  bytes: number;
  /** Seconds since the Unix epoch. */
  modified: number;
}

export interface LabReports {
  enabled: boolean;
  reports: LabReport[];
}

export const api = {
  me: () => call<MeBody>('GET', '/api/me').then((r) => r.user),
  guest: () => call<UserBody>('POST', '/api/guest').then((r) => r.user),
  login: (name: string, password: string) =>
    call<UserBody>('POST', '/api/login', { name, password }).then((r) => r.user),
  register: (name: string, password: string) =>
    call<UserBody>('POST', '/api/register', { name, password }).then((r) => r.user),
  logout: () => call<OkBody>('POST', '/api/logout'),
  games: (query: string) => call<GameList>('GET', `/api/games?${query}`).then((r) => r.games),
  /** One page of a list that filters (`next`: the cursor of the page after). */
  gamePage: (query: string) => call<GamePage>('GET', `/api/games?${query}`),
  tell: () => call<Tell>('GET', '/api/tell'),
  findPlayers: (prefix: string) =>
    call<PlayersFound>('GET', `/api/players?prefix=${encodeURIComponent(prefix)}`).then((r) => r.players),
  game: (id: number) => call<GameInfo>('GET', `/api/games/${id}`),
  player: (name: string) => call<PlayerProfile>('GET', `/api/players/${encodeURIComponent(name)}`),
  create: (body: unknown) => call<GameCreated>('POST', '/api/games', body),
  join: (id: number, body: { seat?: number; invite?: string } = {}) =>
    call<Joined>('POST', `/api/games/${id}/join`, body),
  rematch: (id: number) => call<GameCreated>('POST', `/api/games/${id}/rematch`),
  invite: (id: number) => call<InviteBody>('GET', `/api/games/${id}/invite`),
  admit: (id: number, invite: string) => call<OkBody>('POST', `/api/games/${id}/admit`, { invite }),
  undo: (id: number) => call<OkBody>('POST', `/api/games/${id}/undo`),
  undoAnswer: (id: number, accept: boolean) => call<OkBody>('POST', `/api/games/${id}/undo/answer`, { accept }),
  leave: (id: number) => call<OkBody>('POST', `/api/games/${id}/leave`),
  abandon: (id: number) => call<OkBody>('POST', `/api/games/${id}/abandon`),
  vacation: () => call<VacationView>('GET', '/api/vacation'),
  setVacation: (on: boolean) => call<VacationView>('POST', '/api/vacation', { on }),
  gameMap: (id: number) => call<MapView>('GET', `/api/games/${id}/map`),
  preview: (spec: string) => call<MapView>('GET', `/api/maps/preview?spec=${encodeURIComponent(spec)}`),
  stateAt: (id: number, at: number) => call<StateAt>('GET', `/api/games/${id}/state?at=${at}`),
  stateAtNode: (id: number, node: NodeRef) =>
    call<StateAt>('GET', `/api/games/${id}/state?${'at' in node ? `at=${node.at}` : `var=${node.var}`}`),
  tree: (id: number) => call<ReviewTree>('GET', `/api/games/${id}/tree`),
  record: (id: number) => call<GameRecord>('GET', `/api/games/${id}/record`),
  addVariation: (id: number, parent: NodeRef, input: unknown, player?: number) =>
    call<{ node: VariationNode; state: GameState }>('POST', `/api/games/${id}/variations`, { parent, input, player }),
  addComment: (id: number, node: NodeRef, text: string) =>
    call<{ comment: TreeComment }>('POST', `/api/games/${id}/comments`, { node, text }).then((r) => r.comment),
  analyse: (body: { record: GameRecord; input?: unknown; player?: number; with_map?: boolean }) =>
    call<Analysed>('POST', '/api/analyse', body),
  requestReview: (id: number, playouts?: number) =>
    call<ReviewStatus>('POST', `/api/games/${id}/review`, playouts ? { playouts } : {}),
  review: (id: number, playouts?: number) =>
    call<ReviewStatus>('GET', `/api/games/${id}/review${playouts ? `?playouts=${playouts}` : ''}`),
  reviewPosition: (id: number, at: number, playouts?: number) =>
    call<PositionReview>('GET', `/api/games/${id}/review/positions/${at}${playouts ? `?playouts=${playouts}` : ''}`),
  chat: (id: number) => call<ChatHistory>('GET', `/api/games/${id}/chat`),
  rules: () => call<RuleSystems>('GET', '/api/rules').then((r) => r.systems),
  labReports: () => call<LabReports>('GET', '/api/lab/reports'),
  rulesDoc: async (system: string) => {
    const res = await fetch(`/api/rules/${encodeURIComponent(system)}/doc`);
    if (!res.ok) throw new ApiError(res.status, `no rules page for ${system}`);
    return res.text();
  },
};

/** Signs in as a guest when nobody is signed in (a first visit: the server answers null; a
 *  session that ended: 401). */
export async function ensureUser(): Promise<User> {
  try {
    return (await api.me()) ?? (await api.guest());
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return api.guest();
    throw e;
  }
}

/** The invite code of a private game this page was opened with (its link), or created. */
export function inviteFor(id: number): string | undefined {
  const fromLink = new URLSearchParams(location.hash.split('?')[1] ?? '').get('invite');
  if (fromLink) sessionStorage.setItem(`invite-${id}`, fromLink);
  return sessionStorage.getItem(`invite-${id}`) ?? undefined;
}

/** Private games are read by participants and by those admitted with the invite link. */
export async function admitIfInvited(id: number): Promise<void> {
  const invite = inviteFor(id);
  if (invite) await api.admit(id, invite).catch(() => undefined);
}
