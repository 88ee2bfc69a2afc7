// A tiny DOM builder: h('button', {class: 'x', onclick}, 'text').

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, unknown>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'class') e.className = String(v);
    else if (k === 'value' && 'value' in e) (e as HTMLInputElement).value = String(v);
    else if (k === 'checked' && 'checked' in e) (e as HTMLInputElement).checked = Boolean(v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  append(e, children);
  return e;
}

export function append(e: Element, children: Child[]) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(e: Element) {
  while (e.firstChild) e.firstChild.remove();
}

let toastTimer: ReturnType<typeof setTimeout> | undefined;

/** A short message at the bottom of the screen (also read by screen readers). */
export function toast(text: string, kind: 'info' | 'error' = 'info') {
  const t = document.getElementById('toast');
  if (!t) return;
  t.textContent = text;
  t.className = `show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.className = ''), 4000);
}
