// Home / lobby: who I am, quick play, create a game with a live map preview, open, live and my games.

import { api, type RuleSystem, type SettingInfo } from '../api';
import { clear, h, toast } from '../dom';
import { type MountedBoard, mountBoard } from '../mount';
import type { GameSummary, User } from '../types';
import { session } from '../session';
import { mailPanel } from './mail';
import { type SystemUi, systemUi } from '../systems';
import { ratingText } from '../words';
import { timeControlText } from '../time';
import { clockForm } from './clock_form';
import { tellFetched } from '../tell';
import { type ListName, filterBar, filtersActive, listQuery, pager, playerSearch, sortMine, waitMark } from './lists';
import { challengeFields, sendChallenge, socialSections } from './social';
import { social } from '../social';

export const MAP_KINDS: { kind: string; example: string; about: string }[] = [
  { kind: 'square', example: 'square:9', about: 'Classic square board' },
  { kind: 'rect', example: 'rect:13x9', about: 'Rectangular board' },
  { kind: 'hex', example: 'hex:5', about: 'Hexagonal cells, 6 neighbours' },
  { kind: 'honeycomb', example: 'honeycomb:4', about: 'Honeycomb vertices, 3 neighbours' },
  { kind: 'tri', example: 'tri:9', about: 'Triangular lattice' },
  { kind: 'wavy', example: 'wavy:9', about: 'Square topology, wavy drawing' },
  { kind: 'random', example: 'random:80:seed=7', about: 'Random planar mesh' },
  { kind: 'goldberg', example: 'goldberg:2,1', about: 'Sphere (Goldberg polyhedron)' },
  { kind: 'torus', example: 'torus:9', about: 'Torus: wraps both ways' },
  { kind: 'cylinder', example: 'cylinder:9x7', about: 'Wraps left to right' },
  { kind: 'klein', example: 'klein:9x9', about: 'Klein bottle' },
  { kind: 'cube', example: 'cube:4', about: 'Surface of a cube' },
  { kind: 'grid', example: 'grid:4x4x4', about: '3-D grid' },
];

/** A form field for one setting, built from the system's description. */
export function settingField(d: SettingInfo, value: unknown): HTMLElement {
  // The setting's name first (what the rules document calls it), then what it does.
  const name = d.name.replace(/_/g, ' ');
  const label = `${name.charAt(0).toUpperCase()}${name.slice(1)}: ${d.help}`;
  if (d.kind === 'choice') {
    const select = h('select', { name: d.name, 'data-kind': d.kind }, ...(d.choices ?? []).map((c) => h('option', { value: c }, c.replace(/_/g, ' '))));
    select.value = String(value ?? d.default);
    return h('label', {}, label, select);
  }
  if (d.kind === 'boolean') {
    return h('label', { class: 'check' }, h('input', { type: 'checkbox', name: d.name, 'data-kind': d.kind, checked: Boolean(value ?? d.default) }), ` ${label}`);
  }
  if (d.kind === 'optional_integer') {
    const v = typeof value === 'number' ? String(value) : '';
    return h('label', {}, label, h('input', { type: 'number', name: d.name, 'data-kind': d.kind, value: v, min: d.min, max: d.max, placeholder: 'none' }));
  }
  if (d.kind === 'integers') {
    const list = Array.isArray(value) ? value.join(', ') : '';
    return h('label', {}, label, h('input', { name: d.name, 'data-kind': d.kind, value: list, placeholder: 'e.g. 0, 20' }));
  }
  const attrs: Record<string, unknown> = { type: 'number', name: d.name, 'data-kind': d.kind, step: d.kind === 'number' ? 'any' : 1, value: Number(value ?? d.default ?? 0) };
  if (d.min !== undefined) attrs.min = d.min;
  if (d.max !== undefined) attrs.max = d.max;
  return h('label', {}, label, h('input', attrs));
}

/** The settings a form's fields hold, in the system's JSON. */
export function readSettings(box: HTMLElement): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  box.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[name]').forEach((el) => {
    const kind = el.dataset.kind;
    if (kind === 'choice') out[el.name] = el.value;
    else if (kind === 'boolean') out[el.name] = (el as HTMLInputElement).checked;
    else if (kind === 'integers') out[el.name] = el.value.split(/[\s,]+/).filter(Boolean).map(Number);
    else if (kind === 'optional_integer') out[el.name] = el.value.trim() === '' ? null : Number(el.value);
    else out[el.name] = Number(el.value);
  });
  return out;
}

/** Lobby lists refresh this often while the lobby is shown. */
const LIST_REFRESH_MS = 5000;

export async function lobbyPage(root: HTMLElement): Promise<() => void> {
  const user = await session.user();
  const systems = await api.rules();
  clear(root);
  root.append(
    h('section', { class: 'card hero' },
      h('h1', {}, 'Go on any map, for 2 to 8 players'),
      h('p', {}, 'You are ', h('strong', { id: 'me-name' }, user.name), user.kind === 'guest' ? ' (guest).' : '.'),
      h('div', { class: 'row' },
        h('button', { class: 'primary', id: 'quick-play', onclick: () => quickPlay(systems[0]) }, 'Play now against a bot'),
        h('button', { id: 'first-game', onclick: () => firstGame(), title: 'Classic Go on a small board against the gentlest bot, with no clock' }, 'New to Go? A first game'),
      ),
      accountBox(user),
    ),
  );
  // What players come for first (their games, games to join or watch), then a game of their own.
  const lists = h('section', { class: 'lists' });
  // Filters and search stay put while the lists under them refresh.
  const tools = h('section', { class: 'list-tools' });
  // Then challenges, automatch and the players one follows.
  const socialPart = socialSections(user, systems);
  root.append(tools, lists, socialPart.element);
  root.append(createForm(systems, user));
  // The lists follow new, started and finished games by themselves, and filters at once.
  let busy = false;
  let again = false;
  const refresh = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const fresh = h('section', { class: 'lists' });
      await renderLists(fresh, user, () => void refresh());
      if (lists.isConnected) lists.replaceChildren(...fresh.childNodes);
    } catch {
      // The next refresh tries again.
    } finally {
      busy = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  };
  tools.append(filterBar(systems, () => void refresh()), playerSearch());
  await renderLists(lists, user, () => void refresh());
  const timer = window.setInterval(() => {
    if (lists.isConnected) void refresh();
  }, LIST_REFRESH_MS);
  return () => {
    window.clearInterval(timer);
    socialPart.stop();
  };
}

/** A two-player game against a level-3 bot under the first rule system the server lists, with
 * no turn clock when the system offers a preset without one: a newcomer who looks away for a
 * minute is not timed out of it. */
async function quickPlay(system: RuleSystem | undefined) {
  try {
    const r = await api.create({
      rules: system?.presets.find((p) => !p.timed)?.name ?? system?.name,
      map: 'hex:4',
      players: 2,
      seats: [{ kind: 'me' }, { kind: 'bot', level: 3 }],
    });
    location.hash = `#/game/${r.game.id}`;
  } catch (e) {
    toast(String((e as Error).message), 'error');
  }
}

/** A gentle first game: classic Go on 9×9 against the level-1 bot, no clock, tips on the page. */
async function firstGame() {
  try {
    const r = await api.create({
      rules: 'chinese',
      map: 'square:9',
      players: 2,
      seats: [{ kind: 'me' }, { kind: 'bot', level: 1 }],
      public: false,
    });
    sessionStorage.setItem(`first-game-${r.game.id}`, '1');
    location.hash = `#/game/${r.game.id}`;
  } catch (e) {
    toast(String((e as Error).message), 'error');
  }
}

function accountBox(user: User): HTMLElement {
  const name = h('input', { name: 'name', autocomplete: 'username', placeholder: 'name', required: true, minlength: 3 });
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'current-password', placeholder: 'password', required: true, minlength: 8 });
  const go = async (kind: 'login' | 'register') => {
    try {
      const u = kind === 'login' ? await api.login(name.value, password.value) : await api.register(name.value, password.value);
      session.set(u);
      toast(kind === 'login' ? `Signed in as ${u.name}` : `Registered as ${u.name}`);
      location.reload();
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  };
  if (user.kind !== 'guest') {
    return h('div', {},
      h('p', { class: 'row' },
        h('button', { onclick: async () => { await api.logout(); session.set(null); location.reload(); } }, 'Sign out'),
        h('a', { href: '#/account', id: 'lobby-account' }, 'Your account')),
      user.kind === 'registered' && mailPanel(),
    );
  }
  return h('details', { class: 'account' },
    h('summary', {}, 'Sign in or keep this guest as an account'),
    // Enter signs in (a returning player's habit); registering is its own button.
    h('form', { class: 'row', id: 'account-form', onsubmit: (e: Event) => { e.preventDefault(); void go('login'); } },
      name, password,
      h('button', { type: 'submit', id: 'sign-in' }, 'Sign in'),
      h('button', { type: 'button', id: 'register', onclick: () => { if (name.reportValidity() && password.reportValidity()) void go('register'); } }, 'Register'),
    ),
    h('p', {}, h('a', { href: '#/mail/forgot', id: 'forgot-password' }, 'Forgot your password?')),
  );
}

function createForm(systems: RuleSystem[], user: User): HTMLElement {
  // One option per preset of every system (a system without presets: its defaults).
  const choices = systems.flatMap((s) => {
    const presets = s.presets?.length ? s.presets : [{ name: s.name, about: s.about, settings: s.defaults }];
    return presets.map((p) => ({ system: s, preset: p, label: p.name === s.name ? s.title : `${s.title} — ${p.name} (${p.about})` }));
  });
  const rules = h('select', { name: 'rules', id: 'rules' }, ...choices.map((c, i) => h('option', { value: String(i) }, c.label)));
  const chosen = () => choices[Number(rules.value)] ?? choices[0];
  const kind = h('select', { name: 'map-kind', id: 'map-kind', 'aria-label': 'Map family' },
    ...MAP_KINDS.map((m) => h('option', { value: m.kind }, `${m.kind} — ${m.about}`)),
  );
  const spec = h('input', { name: 'map', id: 'map-spec', value: 'hex:5', 'aria-label': 'Map', spellcheck: 'false' });
  kind.value = 'hex';
  // Changing the rules brings the system's usual map, until the player picks one themselves.
  let mapChosen = false;
  const players = h('input', { name: 'players', id: 'players', type: 'number', min: 2, max: 8, value: 2 });
  const seatsBox = h('div', { class: 'seats', id: 'seats' });
  const settings = h('div', { class: 'settings grid2' });
  const clock = clockForm();
  const timeControl = clock.select;
  const isPublic = h('input', { type: 'checkbox', name: 'public', checked: true });
  // Rated games are between accounts, public, without server bots.
  const guest = user.kind === 'guest';
  const rated = h('input', { type: 'checkbox', name: 'rated', id: 'rated', disabled: guest });
  const ratedLabel = h('label', { class: 'check', title: guest ? 'Register to play rated games' : 'Changes the players\' ratings; no server bots' }, rated, guest ? ' rated (needs an account)' : ' rated');
  rated.addEventListener('change', () => {
    if (!rated.checked) return;
    isPublic.checked = true;
    // Rated games need a clock (the server refuses one without).
    if (timeControl.value === 'none') { timeControl.value = 'rapid'; timeControl.dispatchEvent(new Event('change')); }
    // Open seats in place of bots: rated games are between people and their programs.
    seatsBox.querySelectorAll('select').forEach((s) => {
      if ((s as HTMLSelectElement).value.startsWith('bot:')) (s as HTMLSelectElement).value = 'open';
    });
  });
  // No clock: no rated game (the server refuses one without a clock).
  timeControl.addEventListener('change', () => {
    if (timeControl.value === 'none' && !chosen()?.system.own_clock) rated.checked = false;
  });
  const preview = h('div', { class: 'preview', id: 'preview' });
  const previewNote = h('p', { class: 'muted', id: 'preview-note' });
  let previewBoard: MountedBoard | null = null;
  // Whether the previewed map suits the chosen rules: said before the game is created.
  const mapWarning = h('p', { class: 'error', id: 'map-warning', hidden: true });
  let previewLines: boolean | null = null;
  const checkMap = () => {
    const c = chosen();
    const problem = c ? mapProblem(systemUi(c.system.name), c.system.title, previewLines) : null;
    mapWarning.textContent = problem ?? '';
    mapWarning.hidden = problem === null;
    createButton.disabled = problem !== null;
  };
  const createButton = h('button', { type: 'submit', class: 'primary', id: 'create' }, 'Create game');


  const seatSelect = (i: number) =>
    h('select', { name: `seat-${i}`, 'aria-label': `Seat ${i + 1}` },
      h('option', { value: 'open' }, 'Open seat'),
      h('option', { value: 'invite' }, 'By invitation'),
      ...Array.from({ length: 10 }, (_, k) => h('option', { value: `bot:${k + 1}` }, `Bot, level ${k + 1}`)),
    );
  const renderSeats = () => {
    const n = Math.max(2, Math.min(8, Number(players.value) || 2));
    clear(seatsBox);
    seatsBox.append(h('div', {}, 'Seat 1: you'));
    for (let i = 1; i < n; i++) {
      const s = seatSelect(i);
      s.value = 'bot:3';
      seatsBox.append(h('label', {}, `Seat ${i + 1}: `, s));
    }
  };
  renderSeats();
  players.addEventListener('change', renderSeats);

  // The settings of the chosen system, filled in from the chosen preset.
  const syncRules = () => {
    const c = chosen();
    clear(settings);
    for (const d of c?.system.settings ?? []) settings.append(settingField(d, c.preset.settings[d.name] ?? c.system.defaults[d.name]));
    // A setting may change others' defaults (classic Go: komi 0.5 with a handicap).
    const field = (name: string) => settings.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
    settings.oninput = settings.onchange = (e) => {
      const name = (e.target as HTMLInputElement | null)?.name;
      if (name) systemUi(c?.system.name).formChanged?.(name, field);
    };
    timeControl.parentElement!.hidden = c?.system.own_clock ?? false;
    clock.extras.hidden = c?.system.own_clock ?? false;
    const usual = systemUi(c?.system.name).defaultMap;
    if (usual && !mapChosen && spec.value !== usual) {
      spec.value = usual;
      kind.value = usual.split(':')[0] ?? kind.value;
      if (previewStarted) void updatePreview();
    }
  };
  let previewStarted = false;

  let previewSeq = 0;
  const updatePreview = async () => {
    const mine = ++previewSeq;
    try {
      const map = await api.preview(spec.value.trim());
      if (mine !== previewSeq) return;
      previewBoard?.destroy();
      clear(preview);
      previewNote.textContent = `${map.name}: ${map.nodes} nodes, ${map.edges.length} edges`;
      previewNote.classList.remove('error');
      previewLines = map.straight_lines ?? null;
      checkMap();
      const board = await mountBoard(preview, map, () => {}, () => {}, { zoom: false });
      // The user may have left the lobby or typed on while the board loaded.
      if (mine !== previewSeq || !preview.isConnected) {
        board.destroy();
        return;
      }
      previewBoard = board;
      previewBoard.render({ players: 2, board: [], lastMove: null, mySeat: null, interactive: false });
    } catch (e) {
      if (mine !== previewSeq) return;
      previewLines = null;
      checkMap();
      previewNote.textContent = (e as Error).message;
      previewNote.classList.add('error');
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  spec.addEventListener('input', () => {
    mapChosen = true;
    clearTimeout(timer);
    timer = setTimeout(updatePreview, 300);
  });
  kind.addEventListener('change', () => {
    mapChosen = true;
    spec.value = MAP_KINDS.find((m) => m.kind === kind.value)?.example ?? kind.value;
    void updatePreview();
  });

  const challenge = challengeFields(createButton);
  const form = h('form', { class: 'card create', id: 'create-form' },
    h('h2', {}, 'New game'),
    h('div', { class: 'grid2' },
      h('label', {}, 'Rules ', rules),
      h('label', {}, 'Players ', players),
      h('label', {}, 'Map family ', kind),
      h('label', {}, 'Map ', spec),
      h('label', {}, 'Clock ', timeControl),
      h('label', { class: 'check' }, isPublic, ' listed publicly'),
      ratedLabel,
    ),
    clock.extras,
    seatsBox,
    challenge.element,
    h('details', {}, h('summary', {}, 'Rule settings'), settings),
    previewNote,
    preview,
    mapWarning,
    createButton,
  );
  rules.addEventListener('change', syncRules);
  rules.addEventListener('change', checkMap);
  syncRules();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const n = Number(players.value);
    const seats: unknown[] = [{ kind: 'me' }];
    seatsBox.querySelectorAll('select').forEach((s) => {
      const v = (s as HTMLSelectElement).value;
      seats.push(v.startsWith('bot:') ? { kind: 'bot', level: Number(v.slice(4)) } : { kind: v });
    });
    const c = chosen();
    const rulesBody: unknown = { ...c?.preset.settings, ...readSettings(settings), system: c?.system.name };
    let time: unknown;
    try {
      time = c?.system.own_clock ? undefined : clock.read();
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err), 'error');
      return;
    }
    const terms = challenge.read(seats);
    if (terms) return sendChallenge({ rules: rulesBody, map: spec.value.trim(), players: n, seats, time, public: isPublic.checked, rated: rated.checked }, terms);
    try {
      const r = await api.create({ rules: rulesBody, map: spec.value.trim(), players: n, seats, time, public: isPublic.checked, rated: rated.checked });
      if (r.invite) sessionStorage.setItem(`invite-${r.game.id}`, r.invite);
      location.hash = `#/game/${r.game.id}`;
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err), 'error');
    }
  });
  previewStarted = true;
  void updatePreview();
  return form;
}

/** Why the previewed map cannot carry the chosen rules, in the player's words (null: it can,
 *  or the preview has not said yet). */
export function mapProblem(ui: SystemUi, title: string, straightLines: boolean | null): string | null {
  if (ui.mapNeed?.straightLines && straightLines === false) {
    return `${title} needs a map with straight lines, e.g. ${ui.mapNeed.example}: stones move along them.`;
  }
  return null;
}

export function describeMap(map: unknown): string {
  if (typeof map === 'string') return map;
  const m = map as { spec?: string; custom?: { name?: string } } | null;
  return m?.spec ?? m?.custom?.name ?? 'custom map';
}

function gameRow(g: GameSummary, action: HTMLElement): HTMLElement {
  const seats = h('span', { class: 'muted' });
  g.seats.forEach((s, i) => {
    if (i > 0) seats.append(', ');
    if (s.user) {
      seats.append(s.rating ? h('a', { href: `#/player/${encodeURIComponent(s.user)}` }, s.user) : s.user);
      if (s.rating) seats.append(` (${ratingText({ ...s.rating, change: undefined })})`);
    } else seats.append(s.bot_level !== null ? `bot ${s.bot_level}` : 'open seat');
  });
  const ended = g.result as { abandoned?: boolean; aborted?: boolean } | null;
  const abandoned = ended?.abandoned === true;
  return h('li', { class: 'game-row', 'data-game': g.id },
    h('span', {}, `#${g.id} ${systemUi(g.rules ?? undefined).title} on ${describeMap(g.map)}, ${g.players} players`,
      g.rated ? h('span', { class: 'tag' }, 'rated') : null,
      abandoned ? h('span', { class: 'tag' }, 'abandoned') : null,
      ended?.aborted ? h('span', { class: 'tag' }, 'aborted') : null,
      g.time ? h('span', { class: 'tag time-tag' }, timeControlText(g.time)) : null),
    seats,
    g.result_text ? h('span', { class: 'result-text', 'data-result': g.result_text }, g.result_text) : null,
    g.status === 'live' && g.last_active_ms ? h('span', { class: 'muted last-active' }, `last move ${ago(g.last_active_ms)}`) : null,
    g.status === 'live' && g.watchers > 0 ? h('span', { class: 'muted watchers' }, `${g.watchers} watching`) : null,
    action,
  );
}

async function renderLists(root: HTMLElement, user: User, changed: () => void) {
  const page = (list: ListName) => api.gamePage(listQuery(list));
  const [open, live, finished, mine, tell] = await Promise.all([
    page('open'),
    page('live'),
    page('finished'),
    api.games('mine=true&limit=50'),
    api.tell().catch(() => null),
  ]);
  if (tell) tellFetched(tell);
  const section = (title: string | HTMLElement, id: string, games: GameSummary[], make: (g: GameSummary) => HTMLElement, more: HTMLElement | null = null) =>
    h('div', { class: 'card', id },
      h('h2', {}, title),
      games.length === 0
        ? h('p', { class: 'muted' }, id !== 'my-games' && filtersActive() > 0 ? 'No game matches the filters.' : 'None right now.')
        : h('ul', {}, ...games.map((g) => gameRow(g, make(g)))),
      more,
    );
  const join = (g: GameSummary) =>
    g.seats.some((s) => s.user === user.name)
      ? h('a', { href: `#/game/${g.id}` }, 'Open')
      : h('button', {
          onclick: async () => {
            try {
              await api.join(g.id);
              location.hash = `#/game/${g.id}`;
            } catch (e) {
              toast((e as Error).message, 'error');
            }
          },
        }, 'Join');
  // Games waiting for me first, marked, the least time left first; the count in the heading.
  const waits = new Map((tell?.waiting ?? []).map((w) => [w.game, w]));
  const waiting = mine.filter((g) => waits.has(g.id)).length;
  const myTitle = h('span', {}, 'My games', waiting > 0 ? h('span', { class: 'tag your-move', id: 'my-waiting' }, `${waiting} your move`) : null);
  const myGames = section(myTitle, 'my-games', sortMine(mine, tell), (g) => myGameActions(g, user));
  // The mark leads its row: the first thing read, on a phone too.
  myGames.querySelectorAll<HTMLElement>('li[data-game]').forEach((li) => {
    const w = waits.get(Number(li.dataset.game));
    if (tell && w) li.prepend(waitMark(w, tell));
  });
  const others = [
    section('Open games', 'open-games', open.games, join, pager('open', open.next, changed)),
    section('Live games', 'live-games', live.games, (g) => h('a', { href: `#/game/${g.id}` }, 'Watch'), pager('live', live.next, changed)),
    section('Finished games', 'finished-games', finished.games, (g) => h('a', { href: `#/review/${g.id}` }, 'Review'), pager('finished', finished.next, changed)),
  ];
  // A player with games sees them first; a newcomer sees what they may join.
  root.append(...(mine.length ? [myGames, ...others] : [...others, myGames]));
}

/** Open or review one of my games; a live game against bots only may also be abandoned here
 *  (a forgotten game against the computer need not be played out: the server ends it with no
 *  result). */
function myGameActions(g: GameSummary, user: User): HTMLElement {
  if (g.status === 'finished') return h('a', { href: `#/review/${g.id}` }, 'Review');
  const open = h('a', { href: `#/game/${g.id}` }, 'Open');
  if (g.status === 'open') return h('span', { class: 'row' }, open, cancelButton(g));
  const againstBots = g.status === 'live' && g.seats.every((s) => s.user === user.name || (s.user === null && s.bot_level !== null));
  if (!againstBots) return open;
  const abandon = h('button', {
    class: 'abandon', title: 'End this game against the computer, with no result',
    onclick: async () => {
      if (!confirm(`Abandon game #${g.id}? It ends with no result.`)) return;
      try {
        await api.abandon(g.id);
        abandon.closest('li')?.remove();
        toast(`Game #${g.id} abandoned.`);
      } catch (e) {
        toast((e as Error).message, 'error');
      }
    },
  }, 'Abandon');
  return h('span', { class: 'row' }, open, abandon);
}

/** "3 min ago", "2 days ago": how long since a game was last played in. */
export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return 'just now';
  const [n, unit] = s < 3600 ? [Math.floor(s / 60), 'min'] : s < 86_400 ? [Math.floor(s / 3600), 'hour'] : [Math.floor(s / 86_400), 'day'];
  return `${n} ${unit}${n === 1 || unit === 'min' ? '' : 's'} ago`;
}

/** Takes down an open game of mine (the server refuses whoever did not create it). */
function cancelButton(g: GameSummary): HTMLElement {
  const b = h('button', {
    class: 'cancel-game', title: 'Take this game down: nobody has started it',
    onclick: async () => {
      try {
        await social.cancelGame(g.id);
        b.closest('li')?.remove();
        toast(`Game #${g.id} cancelled.`);
      } catch (e) {
        toast((e as Error).message, 'error');
      }
    },
  }, 'Cancel');
  return b;
}
