// The new-game form's clock: no clock, a preset (blitz to correspondence), or a custom clock
// of any kind with its fields in the units players think in (minutes, days), each checked with
// the server's bounds so that a refusal names the field as the form shows it.

import { h } from '../dom';
import type { TimeControl } from '../protocol';
import { TIME_PRESETS, timeControlText } from '../time';

type Kind = Exclude<TimeControl['kind'], 'none'>;

interface Field {
  key: string;
  label: string;
  /** Seconds in one of the form's units. */
  unit: number;
  min: number;
  max: number;
  value: number | '';
  integer?: boolean;
  optional?: boolean;
}

const MIN = 60;
const DAY = 86_400;
const minutes = (key: string, label: string, value: number, max = 43_200): Field => ({ key, label, unit: MIN, min: 0, max, value });
const seconds = (key: string, label: string, value: number, min = 0): Field => ({ key, label, unit: 1, min, max: 30 * DAY, value });
const count = (key: string, label: string, value: number, min: number): Field => ({ key, label, unit: 0, min, max: 100, value, integer: true });

/** Each kind's fields, with the server's bounds in the form's units (`docs/api.md`). */
const KINDS: Record<Kind, { label: string; fields: Field[] }> = {
  absolute: { label: 'Absolute', fields: [minutes('main_seconds', 'Minutes in all', 20)] },
  fischer: {
    label: 'Fischer',
    fields: [
      minutes('main_seconds', 'Main minutes', 10),
      { ...seconds('increment_seconds', 'Seconds added per move', 10), max: DAY },
      { ...minutes('max_seconds', 'At most (minutes)', 20, 86_400), optional: true },
    ],
  },
  byo_yomi: {
    label: 'Byo-yomi',
    fields: [minutes('main_seconds', 'Main minutes', 10), count('periods', 'Periods', 5, 0), seconds('period_seconds', 'Seconds per period', 30, 1)],
  },
  canadian: {
    label: 'Canadian',
    fields: [minutes('main_seconds', 'Main minutes', 10), count('stones', 'Moves per period', 10, 1), { ...minutes('period_seconds', 'Minutes per period', 5), min: 1 / 60 }],
  },
  simple: { label: 'Simple', fields: [seconds('move_seconds', 'Seconds per move', 30, 1)] },
  correspondence: {
    label: 'Correspondence',
    fields: [
      { key: 'move_seconds', label: 'Days per move', unit: DAY, min: 1 / 24, max: 30, value: 3 },
      { key: 'max_seconds', label: 'At most (days)', unit: DAY, min: 1 / 24, max: 60, value: 7 },
    ],
  },
};

export interface ClockForm {
  /** Weekends off and the custom clock's fields, shown below the choice when they apply. */
  extras: HTMLElement;
  select: HTMLSelectElement;
  /** The chosen control; an error names the field out of range. */
  read(): TimeControl;
  hasClock(): boolean;
}

export function clockForm(): ClockForm {
  const select = h('select', { name: 'time', id: 'time' },
    h('option', { value: 'none' }, 'No clock'),
    ...TIME_PRESETS.map((p) => h('option', { value: p.name, title: timeControlText(p.time) }, p.label)),
    h('option', { value: 'custom' }, 'Custom…'),
  ) as HTMLSelectElement;
  const kind = h('select', { id: 'time-kind', 'aria-label': 'Clock kind' },
    ...Object.entries(KINDS).map(([k, v]) => h('option', { value: k }, v.label))) as HTMLSelectElement;
  kind.value = 'correspondence';
  const fields = h('div', { class: 'clock-fields grid2', id: 'time-fields' });
  const weekendsOff = h('input', { type: 'checkbox', id: 'weekends-off' }) as HTMLInputElement;
  const weekends = h('label', { class: 'check', title: 'Correspondence clocks stand still on Saturdays and Sundays (UTC)' }, weekendsOff, ' weekends off');
  const custom = h('div', { class: 'clock-custom', id: 'time-custom' }, h('label', {}, 'Kind ', kind), fields);
  const inputs = new Map<string, HTMLInputElement>();
  const drawFields = () => {
    fields.replaceChildren();
    inputs.clear();
    for (const f of KINDS[kind.value as Kind].fields) {
      const input = h('input', { type: 'number', step: 'any', name: f.key, 'data-field': f.key, value: String(f.value), placeholder: f.optional ? 'no limit' : '' }) as HTMLInputElement;
      inputs.set(f.key, input);
      fields.append(h('label', {}, `${f.label} `, input));
    }
  };
  const sync = () => {
    custom.hidden = select.value !== 'custom';
    const corr = select.value === 'custom' ? kind.value === 'correspondence' : select.value.startsWith('correspondence');
    weekends.hidden = !corr;
  };
  kind.addEventListener('change', () => { drawFields(); sync(); });
  select.addEventListener('change', sync);
  drawFields();
  sync();

  const readCustom = (): TimeControl => {
    const k = kind.value as Kind;
    const out: Record<string, unknown> = { kind: k };
    for (const f of KINDS[k].fields) {
      const text = inputs.get(f.key)?.value.trim() ?? '';
      if (text === '' && f.optional) continue;
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) throw new Error(`${f.label}: enter a number`);
      if (n < f.min) throw new Error(`${f.label}: at least ${+f.min.toFixed(3)}, not ${n}`);
      if (n > f.max) throw new Error(`${f.label}: at most ${f.max}, not ${n}`);
      if (f.integer && !Number.isInteger(n)) throw new Error(`${f.label}: a whole number, not ${n}`);
      out[f.key] = f.unit ? Math.round(n * f.unit * 1000) / 1000 : n;
    }
    if (k === 'correspondence') out.weekends_off = weekendsOff.checked;
    return out as TimeControl;
  };
  return {
    extras: h('div', { class: 'clock-extras' }, weekends, custom),
    select,
    hasClock: () => select.value !== 'none',
    read: () => {
      if (select.value === 'custom') return readCustom();
      const preset = TIME_PRESETS.find((p) => p.name === select.value);
      if (!preset) return { kind: 'none' };
      return preset.time.kind === 'correspondence' ? { ...preset.time, weekends_off: weekendsOff.checked } : preset.time;
    },
  };
}
