// The rules for players: one page per rule system, in plain words with small diagrams drawn by
// the real board (each system writes its own, src/systems/). The developers' documents
// (docs/rules/, every interpretation) stay one click away for designers.

import { api } from '../api';
import { clear, h } from '../dom';
import { systemUi } from '../systems';

export async function guidePage(root: HTMLElement, system: string) {
  const systems = await api.rules();
  const s = systems.find((x) => x.name === system) ?? systems[0];
  clear(root);
  const body = systemUi(s?.name).guide(s?.defaults ?? {});
  root.append(
    h('nav', { class: 'row tabs' },
      ...systems.map((x) => h('a', { href: `#/rules/${x.name}`, 'aria-current': x.name === s?.name ? 'page' : undefined }, x.title))),
    h('article', { class: 'card guide', id: 'rules-guide', 'data-system': s?.name ?? system },
      h('h1', {}, `How to play ${s?.title ?? system}`),
      ...body,
      h('p', { class: 'muted' }, 'The numbers above are the defaults; a game may change them (its page shows its rules). ',
        h('a', { href: `#/rules/${s?.name ?? system}/reference`, id: 'rules-reference' }, 'The complete rules as implemented'),
        ', with every setting and every reading of the rule document, are for designers and the curious.'),
    ),
  );
}
