// The designers' lab: the reports the server keeps (`gobeyond lab ... --html DIR/NAME.html`
// with `gobeyond serve --reports DIR`), listed newest first; one opens below the list in a
// sandboxed frame (the server also sends it with a sandboxing content policy).

import { api, type LabReport } from '../api';
import { clear, h } from '../dom';

/** "3.2 kB", "1.4 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

export function reportUrl(name: string): string {
  return `/api/lab/reports/${encodeURIComponent(name)}`;
}

export async function labPage(root: HTMLElement, open?: string) {
  const list = await api.labReports();
  clear(root);
  const intro = h('div', { class: 'card' },
    h('h2', {}, 'Lab reports'),
    h('p', {},
      'What a rule or map change does, measured by self-play: wins per seat with their intervals, fair komi and handicaps, ',
      'game lengths, and the fewest stones that live. Made with ', h('code', {}, 'gobeyond lab'), '; see docs/lab.md.'),
  );
  root.append(intro);
  if (!list.enabled) {
    intro.append(h('p', { class: 'muted', id: 'lab-empty' }, 'This server keeps no lab reports.'));
    return;
  }
  if (list.reports.length === 0) {
    intro.append(h('p', { class: 'muted', id: 'lab-empty' },
      'No reports yet: run for example ', h('code', {}, 'gobeyond lab run --rules gobeyond --map hex:5 --players 3 --html reports/hex5.html'),
      ' next to the server.'));
    return;
  }
  const row = (r: LabReport) => h('tr', { 'data-report': r.name },
    h('td', {}, h('a', { href: `#/lab/${encodeURIComponent(r.name)}`, 'aria-current': r.name === open ? 'page' : undefined }, r.title)),
    h('td', {}, r.name),
    h('td', {}, new Date(r.modified * 1000).toLocaleString()),
    h('td', {}, sizeText(r.bytes)),
  );
  root.append(h('div', { class: 'card' },
    h('table', { class: 'history', id: 'lab-reports' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Report'), h('th', {}, 'File'), h('th', {}, 'Made'), h('th', {}, 'Size'))),
      h('tbody', {}, ...list.reports.map(row)),
    ),
  ));
  const chosen = list.reports.find((r) => r.name === open);
  if (chosen) {
    root.append(h('div', { class: 'card' },
      h('div', { class: 'row' }, h('h3', {}, chosen.title), h('a', { href: reportUrl(chosen.name), target: '_blank', rel: 'noopener' }, 'Open alone')),
      h('iframe', { id: 'lab-frame', src: reportUrl(chosen.name), sandbox: '', title: chosen.title, style: 'width:100%;height:75vh;border:0' }),
    ));
  }
}
