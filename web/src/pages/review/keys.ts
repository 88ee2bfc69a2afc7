// The review's keys: ←/→ along the line, ↑/↓ between branches, Home/End.

import type { step } from './tree';

type How = Parameters<typeof step>[2];

const KEYS: Record<string, How> = {
  ArrowLeft: 'prev',
  ArrowRight: 'next',
  ArrowUp: 'up',
  ArrowDown: 'down',
  Home: 'home',
  End: 'end',
};

export function reviewKeys(go: (how: How) => void): () => void {
  const keys = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const how = KEYS[e.key];
    if (!how) return;
    e.preventDefault();
    go(how);
  };
  document.addEventListener('keydown', keys);
  return () => document.removeEventListener('keydown', keys);
}
