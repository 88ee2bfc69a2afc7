// A player's vacation, on their own page: while it runs their correspondence clocks stand still
// (live clocks do not). Each account has a number of vacation days per calendar year.

import { api } from '../api';
import { h, toast } from '../dom';
import type { VacationView } from '../protocol';
import { durationText } from '../time';

function describe(v: VacationView): string {
  const left = `${durationText(v.left_ms)} of this year's ${v.allowance_days} vacation days left`;
  if (v.on && v.until_ms !== null) return `On vacation: your correspondence clocks stand still (for ${durationText(v.until_ms - v.now_ms)} at most). ${left}.`;
  return `Away for a while? Your correspondence clocks stand still while you are on vacation; live clocks keep running. ${left}.`;
}

export async function vacationCard(): Promise<HTMLElement> {
  const card = h('div', { class: 'card vacation', id: 'vacation' }, h('h2', {}, 'Vacation'));
  const text = h('p', { class: 'muted', id: 'vacation-text' });
  const button = h('button', { id: 'vacation-toggle' }) as HTMLButtonElement;
  const show = (v: VacationView) => {
    text.textContent = describe(v);
    button.textContent = v.on ? 'End vacation' : 'Start vacation';
    button.disabled = !v.on && v.left_ms <= 0;
    button.onclick = async () => {
      try {
        show(await api.setVacation(!v.on));
      } catch (e) {
        toast((e as Error).message, 'error');
      }
    };
  };
  show(await api.vacation());
  card.append(text, button);
  return card;
}
