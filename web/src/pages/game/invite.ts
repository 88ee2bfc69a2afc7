// An open game: "Take a seat" for visitors, and the invite link for its creator.

import { api, inviteFor } from '../../api';
import { clear, h, toast } from '../../dom';
import type { GameContext } from './context';

export function renderJoin(ctx: GameContext) {
  const { model, id } = ctx;
  const el = ctx.el.join;
  clear(el);
  renderInvite(ctx);
  const info = model.info;
  if (!info || info.status !== 'open' || ctx.seat() !== null) return;
  const invite = inviteFor(id);
  el.append(h('button', {
    class: 'primary', id: 'join-button',
    onclick: async () => {
      try {
        const r = await api.join(id, invite ? { invite } : {});
        model.apply({ type: 'lobby', game: id, info: r.game });
        ctx.render();
      } catch (e) {
        toast((e as Error).message, 'error');
      }
    },
  }, 'Take a seat'));
}

function renderInvite(ctx: GameContext) {
  const { id } = ctx;
  const info = ctx.model.info;
  if (!info || info.status !== 'open' || info.creator !== ctx.user.id) return;
  if (ctx.creatorInvite === undefined) {
    ctx.creatorInvite = null;
    void api.invite(id).then((r) => {
      ctx.creatorInvite = r.invite;
      ctx.render();
    }).catch(() => undefined);
    return;
  }
  if (!ctx.creatorInvite) return;
  const link = `${location.origin}${location.pathname}#/game/${id}?invite=${ctx.creatorInvite}`;
  const field = h('input', { id: 'invite-link', readonly: true, value: link, 'aria-label': 'Invite link' });
  ctx.el.join.append(h('div', { class: 'invite' },
    h('p', {}, 'Invite players with this link (seats marked "invited" and private games need it):'),
    field,
    h('button', {
      id: 'copy-invite',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          toast('Invite link copied.');
        } catch {
          field.select();
          toast('Select the link and copy it.');
        }
      },
    }, 'Copy link'),
  ));
}
