// Time as players read it: clocks of seconds to days ("2 d 4 h", "5 h 10 min", "3:05"), time
// controls in words, and the lobby's presets (the server's own, by the same names).

import type { TimeControl } from './protocol';

const MIN = 60;
const HOUR = 3600;
const DAY = 86_400;

/** What is left on a clock: "2 d 4 h", "5 h 10 min", "3:05", "42 s". */
export function durationText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= DAY) {
    const d = Math.floor(s / DAY);
    const hours = Math.floor((s % DAY) / HOUR);
    return hours ? `${d} d ${hours} h` : `${d} d`;
  }
  if (s >= HOUR) {
    const hours = Math.floor(s / HOUR);
    const m = Math.floor((s % HOUR) / MIN);
    return m ? `${hours} h ${m} min` : `${hours} h`;
  }
  if (s >= MIN) return `${Math.floor(s / MIN)}:${String(s % MIN).padStart(2, '0')}`;
  return `${s} s`;
}

/** A length of time in words: "3 days", "10 min", "30 s", "1 h 30 min". */
export function spanText(seconds: number): string {
  if (seconds >= DAY && seconds % DAY === 0) return `${seconds / DAY} day${seconds === DAY ? '' : 's'}`;
  if (seconds >= HOUR && seconds % HOUR === 0) return `${seconds / HOUR} h`;
  if (seconds >= MIN && seconds % MIN === 0) return `${seconds / MIN} min`;
  if (seconds >= MIN) return durationText(seconds * 1000);
  return `${seconds} s`;
}

/** A time control in words, as lists and game pages show it. */
export function timeControlText(t: TimeControl): string {
  switch (t.kind) {
    case 'none': return 'no clock';
    case 'absolute': return `${spanText(t.main_seconds)} in all`;
    case 'fischer':
      return `${spanText(t.main_seconds)} + ${spanText(t.increment_seconds)} per move${t.max_seconds ? ` (at most ${spanText(t.max_seconds)})` : ''}`;
    case 'byo_yomi': return `${spanText(t.main_seconds)} + ${t.periods} × ${spanText(t.period_seconds)}`;
    case 'canadian': return `${spanText(t.main_seconds)} + ${t.stones} moves in ${spanText(t.period_seconds)}`;
    case 'simple': return `${spanText(t.move_seconds)} per move`;
    case 'correspondence':
      return `${spanText(t.move_seconds)} per move (at most ${spanText(t.max_seconds)})${t.weekends_off ? ', weekends off' : ''}`;
  }
}

/** The lobby's presets: the server knows the same names (`"time": "rapid"`). */
export const TIME_PRESETS: { name: string; label: string; time: TimeControl }[] = [
  { name: 'blitz', label: 'Blitz: 3 min + 2 s', time: { kind: 'fischer', main_seconds: 3 * MIN, increment_seconds: 2, max_seconds: 5 * MIN } },
  { name: 'rapid', label: 'Rapid: 10 min + 10 s', time: { kind: 'fischer', main_seconds: 10 * MIN, increment_seconds: 10, max_seconds: 20 * MIN } },
  { name: 'live', label: 'Live: 20 min + 5 × 30 s', time: { kind: 'byo_yomi', main_seconds: 20 * MIN, periods: 5, period_seconds: 30 } },
  { name: 'correspondence_1', label: 'Correspondence: 1 day a move', time: { kind: 'correspondence', move_seconds: DAY, max_seconds: 3 * DAY, weekends_off: false } },
  { name: 'correspondence_3', label: 'Correspondence: 3 days a move', time: { kind: 'correspondence', move_seconds: 3 * DAY, max_seconds: 7 * DAY, weekends_off: false } },
  { name: 'correspondence_7', label: 'Correspondence: 7 days a move', time: { kind: 'correspondence', move_seconds: 7 * DAY, max_seconds: 14 * DAY, weekends_off: false } },
];
