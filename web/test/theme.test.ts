import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The page's colours come from CSS variables both themes define (src/style.css): text must keep
// a contrast of at least 4.5:1 (WCAG AA) on the backgrounds it sits on, in light and dark mode.
const css = readFileSync(new URL('../src/style.css', import.meta.url), 'utf8');

function variables(block: string): Record<string, string> {
  return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})\b/g)].map((m) => [m[1], m[2]]));
}

const light = variables(css.match(/^:root\s*\{([^}]*)\}/m)?.[1] ?? '');
const dark = { ...light, ...variables(css.match(/prefers-color-scheme:\s*dark\)\s*\{[\s\S]*?:root\s*\{([^}]*)\}/)?.[1] ?? '') };

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Text colour against background, as the page uses them. */
const PAIRS: [string, string][] = [
  ['ink', 'bg'], ['ink', 'card'],
  ['muted', 'bg'], ['muted', 'card'],
  ['accent', 'bg'], ['accent', 'card'],
  ['danger', 'bg'], ['danger', 'card'],
  ['on-accent', 'accent'], ['on-danger', 'danger'],
];

describe('theme contrast', () => {
  it('reads both themes', () => {
    expect(Object.keys(light).length).toBeGreaterThan(6);
    expect(dark.bg).not.toBe(light.bg);
  });
  for (const [name, theme] of [['light', light], ['dark', dark]] as const) {
    for (const [fg, bg] of PAIRS) {
      it(`${name}: ${fg} on ${bg} is at least 4.5:1`, () => {
        expect(theme[fg], `--${fg} is defined`).toBeDefined();
        expect(contrast(theme[fg], theme[bg])).toBeGreaterThanOrEqual(4.5);
      });
    }
  }
  it('no hard-coded grey text on the players table', () => {
    expect(css).not.toMatch(/\.projected\s*\{[^}]*color:\s*#/);
  });
});
