// The players table: colour, name, rating, the system's columns, and each player's clock under a
// time control.

import { showsPlayerClocks } from '../../clocks';
import { playerStyle } from '../../colors';
import { clear, h } from '../../dom';
import { displayName } from '../../model';
import { ratingText } from '../../words';
import { durationText } from '../../time';
import type { GameContext } from './context';

export function renderPlayers(ctx: GameContext) {
  const { model } = ctx;
  const s = model.state;
  const n = model.players;
  // Some columns mean nothing in some states (GoBeyond's projection once the game is over).
  const columns = model.ui.columns.filter((c) => c.shown?.(s) ?? true);
  const waiting = model.waitingFor();
  // Under a time control every player's clock shows, not only the running one.
  const clock = model.info?.status === 'live' ? model.clock : null;
  // An untimed game has a clock only for a window (Tribal Go's reactions): no time column.
  const timed = showsPlayerClocks(clock, n);
  const table = ctx.el.players;
  clear(table);
  table.append(
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'Player'), ...columns.map((c) => h('th', {}, c.header)),
      timed ? h('th', {}, 'Time') : null)),
  );
  const body = h('tbody', {});
  for (let seat = 0; seat < n; seat++) {
    const style = s ? (model.ui.seatStyle?.(s, seat) ?? seat) : seat;
    const st = playerStyle(style, n);
    const p = s?.players[seat];
    const seatInfo = model.info?.seats[seat];
    const name = displayName(p?.name || seatInfo?.user) || (seatInfo?.kind?.kind === 'bot'
      ? `bot, level ${seatInfo.bot_level}`
      : seatInfo?.kind?.kind === 'invite' || model.info?.private ? 'waiting for an invited player' : 'open seat');
    const row = h('tr', {
      class: `${waiting.includes(seat) ? 'to-move' : ''} ${seat === ctx.seat() ? 'me' : ''} ${s && model.ui.resigned(s, seat) ? 'resigned' : ''}`,
      'data-seat': seat,
    },
      h('td', {}, swatch(style, n)),
      // The colour and the stones on the board under the name: a column less for narrow cards.
      h('td', {},
        seatInfo?.rating && seatInfo.user ? h('a', { href: `#/player/${encodeURIComponent(seatInfo.user)}` }, name) : name,
        seat === ctx.seat() ? h('strong', {}, ' (you)') : null,
        seatInfo?.rating && seatInfo.user && seat !== ctx.seat() ? h('a', { class: 'challenge-link small', href: `#/?challenge=${encodeURIComponent(seatInfo.user)}` }, ' challenge') : null,
        seatInfo?.rating ? h('span', { class: 'rating muted', 'data-rating-seat': seat }, ` ${ratingText(seatInfo.rating)}`) : null,
        h('div', { class: 'muted small' }, p ? `${st.name} · ${p.stones.length} stone${p.stones.length === 1 ? '' : 's'}` : st.name)),
      ...columns.map((c) => h('td', { class: c.cls, title: c.title }, c.cell(p, s))),
      timed && clock ? h('td', { class: 'player-clock', 'data-clock-seat': seat }, clockText(clock.remaining_ms[seat], clock.periods_left[seat])) : null,
    );
    body.append(row);
  }
  table.append(body);
}

function clockText(ms: number, periods: number | undefined): string {
  const main = durationText(ms);
  return periods ? `${main} +${periods}` : main;
}

/** A seat's colour as a small disc. */
export function swatch(seat: number, players: number): SVGSVGElement {
  const st = playerStyle(seat, players);
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '-1 -1 2 2');
  svg.setAttribute('class', 'swatch');
  svg.setAttribute('aria-label', st.name);
  const c = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
  c.setAttribute('r', '0.9');
  c.setAttribute('fill', st.fill);
  c.setAttribute('stroke', st.stroke);
  c.setAttribute('stroke-width', '0.1');
  svg.append(c);
  return svg;
}
