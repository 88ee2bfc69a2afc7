// HTTP calls of the tournament pages (docs/api.md, "Tournaments"). Errors carry the server's
// reason, as every call does (`call` in web/src/api.ts).

import { call } from '../../api';
import type { CreateBody, TournamentSummary, TournamentView } from './types';

const base = '/api/tournaments';

export const tournaments = {
  list: (state: 'open' | 'running' | 'finished') =>
    call<{ tournaments: TournamentSummary[] }>('GET', `${base}?state=${state}`).then((r) => r.tournaments),
  create: (body: CreateBody) => call<{ id: number }>('POST', base, body),
  view: (id: number) => call<TournamentView>('GET', `${base}/${id}`),
  join: (id: number, invite?: string) => call<unknown>('POST', `${base}/${id}/join`, invite ? { invite } : {}),
  leave: (id: number) => call<unknown>('POST', `${base}/${id}/leave`, {}),
  addBot: (id: number, level: number) => call<unknown>('POST', `${base}/${id}/bots`, { level }),
  start: (id: number) => call<unknown>('POST', `${base}/${id}/start`, {}),
  bye: (id: number, round: number) => call<unknown>('POST', `${base}/${id}/bye`, { round }),
  exportUrl: (id: number, kind: 'json' | 'csv') => `${base}/${id}/export.${kind}`,
};
