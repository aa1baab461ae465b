/**
 * axe-core in the desk's page. It is added as a Playwright init script, which the browser runs outside the
 * page's CSP, so the app's own policy (script-src 'self') stays as it ships.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { AxeResults, ImpactValue } from 'axe-core';

/** axe-core itself, for a context's init script where a test opens its own pages. */
export const AXE_SOURCE = path.resolve(__dirname, '../node_modules/axe-core/axe.min.js');
const FAILING: ImpactValue[] = ['serious', 'critical'];

export async function addAxe(page: Page): Promise<void> {
  await page.addInitScript({ path: AXE_SOURCE });
}

/**
 * Runs every axe rule on the page as it is now, and target size (WCAG 2.2, 2.5.8), which axe leaves off by
 * default; returns the serious and critical violations, one line each.
 */
export async function audit(page: Page, state: string): Promise<string[]> {
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run(context: Document, options: object): Promise<AxeResults> };
    };
    const results = await axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'target-size': { enabled: true } },
    });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      nodes: v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
    }));
  });
  return violations
    .filter((v) => v.impact !== null && FAILING.includes(v.impact))
    .flatMap((v) => v.nodes.map((node) => `${state}: ${v.id} (${v.impact}) at ${node}`));
}

/** Types a value into every visible field a person types into, as a person would, so axe sees typed text. */
export async function typeIntoEveryField(page: Page, scope = 'main'): Promise<number> {
  const fields = page.locator(
    `${scope} :is(input:not([type='checkbox'], [type='radio'], [type='file'], [type='hidden']), textarea)`,
  );
  let typed = 0;
  for (const field of await fields.all()) {
    if (!(await field.isVisible()) || !(await field.isEditable())) continue;
    const type = (await field.getAttribute('type')) ?? 'text';
    const value =
      type === 'number'
        ? '12.5'
        : type === 'url'
          ? 'http://127.0.0.1:9/typed'
          : type === 'date'
            ? '2026-01-02'
            : 'Typed value 0x5e';
    await field.fill(value);
    typed++;
  }
  return typed;
}
