// The rules as implemented (docs/rules/), served by the server as HTML.

import { api } from '../api';
import { clear, h } from '../dom';

export async function rulesPage(root: HTMLElement, system: string) {
  const html = await api.rulesDoc(system);
  clear(root);
  const doc = h('article', { class: 'card doc', id: 'rules-doc' });
  // Our own documents, rendered by the server from docs/rules/.
  doc.innerHTML = html;
  root.append(
    h('nav', { class: 'row tabs' },
      h('a', { href: '#/rules/gobeyond', 'aria-current': system === 'gobeyond' ? 'page' : undefined }, 'GoBeyond'),
      h('a', { href: '#/rules/classic', 'aria-current': system === 'classic' ? 'page' : undefined }, 'Classic Go'),
    ),
    doc,
  );
}
