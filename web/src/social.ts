// The social routes (docs/api.md, "Finding opponents"): challenges, follows, blocks, seeks.

import { call } from './api';
import { session } from './session';
import type { Notice } from './tell';
import type { ChallengeList, ChallengeView, OkBody, PeopleList, Relations, SeekStatus } from './protocol';

export interface ChallengeTerms {
  to: string;
  their_seat: number;
  expires_seconds: number;
}

/** A seek as `POST /api/seek` takes it. */
export interface SeekBody {
  rules: string;
  shape: string;
  min_size: number;
  max_size: number;
  players: number;
  time?: unknown;
  min_rating?: number;
  max_rating?: number;
  bots_after_seconds?: number;
  bot_level?: number;
}

const name = (n: string) => encodeURIComponent(n);

/** Challenges waiting for the reader's answer, as notices for every tab (docs/web.md, "Being
 *  told"); the lobby lists them with Accept and Decline. */
export async function challengeNotices(): Promise<Notice[]> {
  // Guests can neither send nor receive challenges (a guest may register later in the tab).
  const me = await session.user().catch(() => null);
  if (!me || me.kind === 'guest') return [];
  const list = await social.challenges().catch(() => null);
  if (!list) return [];
  return list.challenges
    .filter((c) => c.incoming && c.status === 'pending')
    .map((c) => ({
      key: `challenge:${c.id}`,
      title: `${c.from} challenges you`,
      body: `${c.rules} on ${c.map}, ${c.players} players${c.rated ? ', rated' : ''}`,
      href: '#/',
    }));
}

export const social = {
  challenges: () => call<ChallengeList>('GET', '/api/challenges'),
  challenge: (game: unknown, terms: ChallengeTerms) => call<ChallengeView>('POST', '/api/challenges', { ...terms, game }),
  answer: (id: number, answer: 'accept' | 'decline' | 'withdraw') => call<ChallengeView>('POST', `/api/challenges/${id}/${answer}`),
  following: () => call<PeopleList>('GET', '/api/follows').then((r) => r.people),
  follow: (who: string) => call<OkBody>('POST', '/api/follows', { name: who }),
  unfollow: (who: string) => call<OkBody>('DELETE', `/api/follows/${name(who)}`),
  blocked: () => call<PeopleList>('GET', '/api/blocks').then((r) => r.people),
  block: (who: string) => call<OkBody>('POST', '/api/blocks', { name: who }),
  unblock: (who: string) => call<OkBody>('DELETE', `/api/blocks/${name(who)}`),
  relations: (who: string) => call<Relations>('GET', `/api/players/${name(who)}/social`),
  seek: (body: SeekBody) => call<SeekStatus>('POST', '/api/seek', body).then((r) => r.seek),
  pollSeek: () => call<SeekStatus>('GET', '/api/seek').then((r) => r.seek),
  stopSeeking: () => call<OkBody>('DELETE', '/api/seek'),
  cancelGame: (id: number) => call<OkBody>('POST', `/api/games/${id}/cancel`),
};
