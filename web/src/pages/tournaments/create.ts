// The Create form of #/tournaments: the rules, map and clock as the lobby's new-game form offers
// them (its settings fields and clock, web/src/pages/lobby.ts and clock_form.ts), then the
// tournament's own choices in plain words. Checked here first (words.ts), then by the server.

import type { RuleSystem } from '../../api';
import { h } from '../../dom';
import type { User } from '../../types';
import { clockForm } from '../clock_form';
import { MAP_KINDS, readSettings, settingField } from '../lobby';
import { tournaments } from './calls';
import type { Format } from './types';
import { FORMATS, readCreate, roundsFollowEntrants } from './words';

const num = (name: string, value: number | string, min: number, max: number, extra: Record<string, unknown> = {}) =>
  h('input', { type: 'number', name, id: `t-${name}`, value: String(value), min, max, ...extra }) as HTMLInputElement;

export function createTournamentForm(systems: RuleSystem[], user: User): HTMLElement {
  // One option per preset of every system, as in the lobby.
  const choices = systems.flatMap((s) => {
    const presets = s.presets?.length ? s.presets : [{ name: s.name, about: s.about, settings: s.defaults }];
    return presets.map((p) => ({ system: s, preset: p, label: p.name === s.name ? s.title : `${s.title} — ${p.name} (${p.about})` }));
  });
  const rules = h('select', { name: 'rules', id: 't-rules' }, ...choices.map((c, i) => h('option', { value: String(i) }, c.label))) as HTMLSelectElement;
  const chosen = () => choices[Number(rules.value)] ?? choices[0];
  const name = h('input', { name: 'name', id: 't-name', maxlength: 80, placeholder: 'e.g. Friday 9×9 Swiss', required: true }) as HTMLInputElement;
  const map = h('input', { name: 'map', id: 't-map', value: 'square:9', spellcheck: 'false', list: 't-map-examples' }) as HTMLInputElement;
  const mapExamples = h('datalist', { id: 't-map-examples' }, ...MAP_KINDS.map((m) => h('option', { value: m.example }, m.about)));
  const format = h('select', { name: 'format', id: 't-format' },
    ...FORMATS.map((f) => h('option', { value: f.format }, f.label))) as HTMLSelectElement;
  // What the chosen format is, in a line of its own (a select's option is cut on a phone).
  const formatHelp = h('span', { class: 'muted small', id: 't-format-help' });
  const rounds = num('rounds', 3, 0, 100);
  const roundsHelp = h('span', { class: 'muted small', id: 't-rounds-help' });
  const arenaMinutes = num('arena_minutes', 30, 5, 1440);
  const arenaLabel = h('label', { hidden: true }, 'Arena length (minutes) ', arenaMinutes, h('span', { class: 'muted small' }, '5 minutes to a day; games in play when it ends still count'));
  const ppg = num('players_per_game', 2, 2, 8);
  const minEntrants = num('min_entrants', 2, 2, 256);
  const maxEntrants = num('max_entrants', 16, 2, 256);
  const start = h('input', { type: 'datetime-local', name: 'start', id: 't-start' }) as HTMLInputElement;
  const minRating = num('min_rating', '', 0, 5000, { placeholder: 'any' });
  const maxRating = num('max_rating', '', 0, 5000, { placeholder: 'any' });
  const points = h('input', { name: 'points', id: 't-points', placeholder: 'usual: 1, 0 (N players: N−1 … 0)' }) as HTMLInputElement;
  const advance = num('advance', '', 1, 7, { placeholder: '1' });
  const bots = h('input', { name: 'bots', id: 't-bots', placeholder: 'levels, e.g. 1, 1, 3' }) as HTMLInputElement;
  const entry = h('select', { name: 'entry', id: 't-entry' },
    h('option', { value: 'open' }, 'Anyone may join'),
    h('option', { value: 'invitation' }, 'By invitation: those you send the link')) as HTMLSelectElement;
  const guest = user.kind === 'guest';
  const rated = h('input', { type: 'checkbox', name: 'rated', id: 't-rated', disabled: guest }) as HTMLInputElement;
  const clock = clockForm();
  clock.select.id = 't-time';
  const settings = h('div', { class: 'settings grid2' });

  const syncFormat = () => {
    const f = format.value as Format;
    const about = FORMATS.find((x) => x.format === f)?.about ?? '';
    formatHelp.textContent = about.charAt(0).toUpperCase() + about.slice(1) + '.';
    roundsHelp.textContent = roundsFollowEntrants(f) ? '0: as many as the entrants need' : 'how many rounds are played';
    rounds.min = roundsFollowEntrants(f) ? '0' : '1';
    if (roundsFollowEntrants(f) && rounds.value === '3') rounds.value = '0';
    if (!roundsFollowEntrants(f) && rounds.value === '0') rounds.value = '3';
    arenaLabel.hidden = f !== 'arena';
    rounds.parentElement!.hidden = f === 'arena';
  };
  const syncRules = () => {
    const c = chosen();
    settings.replaceChildren(...(c?.system.settings ?? []).map((d) => settingField(d, c.preset.settings[d.name] ?? c.system.defaults[d.name])));
    clock.select.parentElement!.hidden = c?.system.own_clock ?? false;
    clock.extras.hidden = c?.system.own_clock ?? false;
  };
  const submit = h('button', { type: 'submit', class: 'primary', id: 't-create' }, 'Create tournament');
  // A refusal stays on the form (a toast goes away while the player reads the fields).
  const problem = h('p', { class: 'error', id: 't-error', role: 'alert', hidden: true });
  // The form's own checks name each field in words (the browser's bubbles say less, and differ).
  const form = h('form', { class: 'card create', id: 'tournament-form', novalidate: true },
    h('h2', {}, 'New tournament'),
    h('div', { class: 'grid2' },
      h('label', {}, 'Name ', name),
      h('label', {}, 'Rules ', rules),
      h('label', {}, 'Map ', map, mapExamples),
      h('label', {}, 'Players per game ', ppg),
      h('label', {}, 'Clock ', clock.select),
      h('label', {}, 'Format ', format, formatHelp),
      h('label', {}, 'Rounds ', rounds, roundsHelp),
      arenaLabel,
      h('label', {}, 'Starts ', start, h('span', { class: 'muted small' }, 'empty: when full, or when you press Start')),
      h('label', {}, 'At least (entrants) ', minEntrants),
      h('label', {}, 'At most (entrants) ', maxEntrants),
      h('label', {}, 'Entry ', entry),
      h('label', { class: 'check', title: guest ? 'Register to run rated tournaments' : 'Games change the players\' ratings' }, rated, guest ? ' rated (needs an account)' : ' rated'),
    ),
    clock.extras,
    h('details', { id: 't-more' }, h('summary', {}, 'Who may enter, points, bots'),
      h('div', { class: 'grid2' },
        h('label', {}, 'Lowest rating ', minRating),
        h('label', {}, 'Highest rating ', maxRating),
        h('label', {}, 'Points by place ', points),
        h('label', {}, 'Knockout with more than 2 a table: go on from each table ', advance),
        h('label', {}, 'Bots entered at once ', bots),
      )),
    h('details', {}, h('summary', {}, 'Rule settings'), settings),
    problem,
    submit,
  );
  // A refusal is about the values sent: once the player edits a field it no longer applies.
  form.addEventListener('input', () => { problem.hidden = true; });
  format.addEventListener('change', syncFormat);
  rules.addEventListener('change', syncRules);
  syncFormat();
  syncRules();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const c = chosen();
    problem.hidden = true;
    try {
      const fields = readCreate({
        name: name.value, format: format.value as Format, rounds: rounds.value, playersPerGame: ppg.value,
        minEntrants: minEntrants.value, maxEntrants: maxEntrants.value, start: start.value,
        minRating: minRating.value, maxRating: maxRating.value, points: points.value, advance: advance.value, bots: bots.value,
        arenaMinutes: arenaMinutes.value,
      });
      const time_control = c?.system.own_clock ? { kind: 'none' } : clock.read();
      submit.disabled = true;
      const r = await tournaments.create({
        ...fields,
        entry: entry.value === 'invitation' ? 'invitation' : 'open',
        system: c?.system.name ?? '',
        settings: { ...c?.preset.settings, ...readSettings(settings) },
        map: map.value.trim(),
        time_control,
        rated: rated.checked,
      });
      location.hash = `#/tournaments/${r.id}`;
    } catch (err) {
      problem.textContent = err instanceof Error ? err.message : String(err);
      problem.hidden = false;
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
