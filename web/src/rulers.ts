// Coordinates that stay in view on a zoomed flat board: a board drawn larger than its holder
// scrolls, and the coordinates along its sides scroll out of view with it (on a phone at 200 %
// nobody could tell D16 from D19). Two rulers along the holder's top and left edges repeat the
// column and row names at the places the board shows them now.

import { h } from './dom';

/** A side coordinate as drawn: its name and its centre on the page. */
export interface DrawnCoordinate {
  text: string;
  x: number;
  y: number;
}

/** Columns are names drawn twice at one x (above and below the board), rows twice at one y. */
export function splitCoordinates(drawn: DrawnCoordinate[]): { columns: DrawnCoordinate[]; rows: DrawnCoordinate[] } {
  const byText = new Map<string, DrawnCoordinate[]>();
  for (const d of drawn) byText.set(d.text, [...(byText.get(d.text) ?? []), d]);
  const columns: DrawnCoordinate[] = [];
  const rows: DrawnCoordinate[] = [];
  for (const copies of byText.values()) {
    const [a, b] = copies;
    if (!b) continue;
    if (Math.abs(a.x - b.x) < Math.abs(a.y - b.y)) columns.push({ ...a, y: Math.min(a.y, b.y) });
    else rows.push({ ...a, x: Math.min(a.x, b.x) });
  }
  return { columns, rows };
}

/** Rulers for `holder` inside `container`; `update()` after every scroll or zoom. */
export function coordinateRulers(container: HTMLElement, holder: HTMLElement): { update(): void; remove(): void } {
  const top = h('div', { class: 'ruler ruler-top', 'aria-hidden': 'true' });
  const left = h('div', { class: 'ruler ruler-left', 'aria-hidden': 'true' });
  container.classList.add('has-rulers');
  container.append(top, left);
  const update = () => {
    const zoomed = holder.classList.contains('zoomed');
    top.hidden = left.hidden = !zoomed;
    if (!zoomed) return;
    const box = holder.getBoundingClientRect();
    const outer = container.getBoundingClientRect();
    const drawn = [...holder.querySelectorAll('svg .coords text')].map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent ?? '', x: r.left + r.width / 2, y: r.top + r.height / 2 };
    });
    const { columns, rows } = splitCoordinates(drawn);
    Object.assign(top.style, { left: `${box.left - outer.left}px`, top: `${box.top - outer.top}px`, width: `${holder.clientWidth}px` });
    Object.assign(left.style, { left: `${box.left - outer.left}px`, top: `${box.top - outer.top}px`, height: `${holder.clientHeight}px` });
    top.replaceChildren(...columns.filter((c) => c.x > box.left + 12 && c.x < box.left + holder.clientWidth)
      .map((c) => h('span', { style: `left: ${c.x - box.left}px` }, c.text)));
    left.replaceChildren(...rows.filter((r) => r.y > box.top + 12 && r.y < box.top + holder.clientHeight)
      .map((r) => h('span', { style: `top: ${r.y - box.top}px` }, r.text)));
  };
  holder.addEventListener('scroll', update, { passive: true });
  return {
    update,
    remove() {
      top.remove();
      left.remove();
    },
  };
}
