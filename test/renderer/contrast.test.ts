/**
 * The colour variables of both themes, read from the window's styles, against WCAG 2.2 AA: text 4.5:1 (1.4.3)
 * and the parts that identify a control or its state 3:1 (1.4.11). axe checks text on screen, but not focus
 * rings, borders or row markers; this does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The window's styles as the bundle holds them: its parts, in main.tsx's order. */
const css = ['base', 'panels', 'charts-forms', 'library-purchases']
  .map((part) => readFileSync(path.join(__dirname, `../../src/renderer/styles/${part}.css`), 'utf8'))
  .join('');

function variables(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`the styles have no ${selector} block`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

const light = variables(':root');
const themes = { light, dark: { ...light, ...variables(":root[data-theme='dark']") } };

function luminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`${hex} is not a #rrggbb colour`);
  const [r, g, b] = match.slice(1).map((part) => {
    const c = parseInt(part, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function ratio(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

/** [foreground, background]: text read on that background. */
const TEXT: [string, string][] = [
  ['--text', '--bg'],
  ['--text', '--panel'],
  ['--text', '--row-current'],
  ['--text', '--mark'],
  ['--muted', '--bg'],
  ['--muted', '--panel'],
  ['--muted', '--row-current'],
  ['--accent', '--bg'],
  ['--accent', '--panel'],
  ['--accent-text', '--accent'],
  ['--ok', '--bg'],
  ['--ok', '--panel'],
  ['--warn', '--bg'],
  ['--warn', '--panel'],
  ['--error', '--bg'],
  ['--error', '--panel'],
];

/** [part, background]: focus ring, control borders, the current-row marker, the active tab and primary fill. */
const NON_TEXT: [string, string][] = [
  ['--focus', '--bg'],
  ['--focus', '--panel'],
  ['--control-border', '--bg'],
  ['--control-border', '--panel'],
  ['--row-marker', '--row-current'],
  ['--row-marker', '--panel'],
  ['--accent', '--bg'],
  ['--accent', '--panel'],
  ['--error', '--panel'],
];

describe.each(Object.entries(themes))('%s theme colours', (_theme, vars) => {
  const colour = (name: string) => {
    const value = vars[name];
    if (!value) throw new Error(`the styles set no ${name}`);
    return value;
  };
  it.each(TEXT)('text %s on %s is at least 4.5:1', (fg, bg) => {
    expect(ratio(colour(fg), colour(bg))).toBeGreaterThanOrEqual(4.5);
  });
  it.each(NON_TEXT)('%s on %s is at least 3:1', (fg, bg) => {
    expect(ratio(colour(fg), colour(bg))).toBeGreaterThanOrEqual(3);
  });
});

describe('the checked colours are the ones drawn', () => {
  const rule = (selector: string) => {
    const start = css.indexOf(`\n${selector} {`);
    if (start < 0) throw new Error(`the styles have no rule for ${selector}`);
    return css.slice(start, css.indexOf('}', start));
  };
  it.each([
    [':focus-visible', 'outline: 3px solid var(--focus)'],
    ['button', 'border: 1px solid var(--control-border)'],
    ['select', 'border: 1px solid var(--control-border)'],
    ['select', 'color: var(--text)'],
    ['.shelf-row.current', 'inset 4px 0 0 var(--row-marker)'],
    ['.library-table tbody tr.current', 'inset 4px 0 0 var(--row-marker)'],
  ])('%s draws %s', (selector, declaration) => {
    expect(rule(selector)).toContain(declaration);
  });
});
