// A player page's social bar: online or away, their live games, and for the reader Challenge,
// Follow and Block (each answered by the server with a reason when it says no).

import { ApiError } from '../api';
import { clear, h, toast } from '../dom';
import type { Relations } from '../protocol';
import { session } from '../session';
import { social } from '../social';
import { reportButton } from '../moderation/report';
import '../social.css';

export function playerSocial(name: string): HTMLElement {
  const bar = h('div', { class: 'player-social', id: 'player-social' });
  const render = (r: Relations, me: string | null) => {
    clear(bar);
    bar.append(h('p', {},
      h('span', { class: r.online ? 'presence online' : 'presence', id: 'player-presence' }, r.online ? '● online' : '○ away'),
      ...r.live_games.map((g) => h('a', { class: 'tag', href: `#/game/${g}` }, `watch #${g}`)),
    ));
    if (me === null || me === name) return;
    const act = (label: string, id: string, run: () => Promise<unknown>) => h('button', {
      id,
      onclick: async () => {
        try {
          await run();
          render(await social.relations(name), me);
        } catch (e) {
          toast(e instanceof ApiError ? e.message : String(e), 'error');
        }
      },
    }, label);
    const challenge = r.challenge === null
      ? h('button', { class: 'primary', id: 'challenge-player', onclick: () => { location.hash = `#/?challenge=${encodeURIComponent(name)}`; } }, 'Challenge')
      : h('span', { class: 'muted', id: 'challenge-why' }, `No challenge: ${r.challenge}.`);
    bar.append(h('div', { class: 'row' },
      challenge,
      r.following ? act('Unfollow', 'unfollow', () => social.unfollow(name)) : act('Follow', 'follow', () => social.follow(name)),
      r.blocked
        ? act('Unblock', 'unblock', () => social.unblock(name))
        : act('Block', 'block', async () => {
            if (confirm(`Block ${name}? Their challenges, invitations and chat will not reach you.`)) await social.block(name);
          }),
      reportButton(() => ({ user: name }), { id: 'report-player' }),
    ));
  };
  void (async () => {
    try {
      const [r, me] = await Promise.all([social.relations(name), session.user()]);
      render(r, me.name);
    } catch {
      // The page stands without it.
    }
  })();
  return bar;
}
