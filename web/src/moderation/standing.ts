// The reader's role and standing (`GET /api/me`), read on every page change: the header shows
// the moderators' link to those who may moderate, and a banner under it to a player who is
// muted, suspended or banned — reason and end included, so nobody learns it from a refusal.

import { h } from '../dom';
import { moderation } from './api';
import type { MeWithStanding } from './types';
import { standingLines } from './words';

let latest: MeWithStanding | null = null;
let askedAt = 0;
/** Page changes ask again at most this often (the account and moderators' pages always ask). */
const ROUTE_REFRESH_MS = 60_000;

/** The last answer: the page may read the role without asking again. */
export function currentMe(): MeWithStanding | null {
  return latest;
}

export function mayModerate(role: string | undefined): boolean {
  return role === 'moderator' || role === 'admin';
}

/** Asks the server again and redraws the header's link and banner. Failures leave both as they
 *  were: the page itself reports a server that does not answer. */
export async function refreshStanding(): Promise<MeWithStanding | null> {
  askedAt = Date.now();
  try {
    latest = await moderation.me();
  } catch {
    return latest;
  }
  drawHeader(latest);
  return latest;
}

function drawHeader(me: MeWithStanding) {
  // The link exists only for moderators: other players' navigation stays as it was.
  const link = document.getElementById('nav-moderation');
  if (mayModerate(me.standing?.role)) {
    if (!link) document.querySelector('header.top nav')?.append(h('a', { href: '#/moderation', id: 'nav-moderation' }, 'Moderation'));
  } else {
    link?.remove();
  }
  document.getElementById('standing-banner')?.remove();
  const lines = standingLines(me.standing ?? undefined, Date.now());
  if (lines.length === 0) return;
  const banner = h('div', { class: `standing-banner is-${lines[0].kind}`, id: 'standing-banner', role: 'alert' },
    h('div', {},
      ...lines.map((l) => h('p', { 'data-kind': l.kind }, l.text)),
      me.standing?.reason ? h('p', { class: 'standing-reason' }, `Reason: ${me.standing.reason}`) : null),
    h('a', { href: '#/account' }, 'Your account'),
  );
  document.querySelector('header.top')?.after(banner);
}

/** On a page change: the header as the server last said, asked again once in a while. */
export function standingOnRoute() {
  if (Date.now() - askedAt >= ROUTE_REFRESH_MS) void refreshStanding();
}
