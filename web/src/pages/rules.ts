// The rules as implemented (docs/rules/), served by the server as HTML.

import { api } from '../api';
import { clear, h } from '../dom';

export async function rulesPage(root: HTMLElement, system: string) {
  const [html, systems] = await Promise.all([api.rulesDoc(system), api.rules()]);
  clear(root);
  const doc = h('article', { class: 'card doc', id: 'rules-doc' });
  // Our own documents, rendered by the server from docs/rules/.
  doc.innerHTML = html;
  root.append(
    h('nav', { class: 'row tabs' },
      ...systems.map((s) => h('a', { href: `#/rules/${s.name}`, 'aria-current': system === s.name ? 'page' : undefined }, s.title)),
    ),
    doc,
  );
}
