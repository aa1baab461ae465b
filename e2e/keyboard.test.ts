/** Keyboard only: find a handle, open its menu, buy, confirm and read without touching the mouse. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from './browser';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

let fx: DeskFixture;
let page: Page;

const focusedText = (p: Page) => p.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

/** Tabs forward until the focused element's text matches, as a person would; fails after `limit` presses. */
async function tabTo(p: Page, pattern: RegExp, limit = 80): Promise<string> {
  for (let i = 0; i < limit; i++) {
    await p.keyboard.press('Tab');
    const text = await focusedText(p);
    if (pattern.test(text)) return text;
  }
  throw new Error(`No element matching ${pattern} is reachable with Tab`);
}

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 6, minReportsPerHandle: 2, maxReportsPerHandle: 4 } },
    demoKey: (stack) => stack.buyerKeys[2]!,
  });
  page = fx.page;
  await page.locator('.shelf-row').first().waitFor();
});

afterAll(() => fx?.close());

describe('keyboard only', () => {
  it('filters with "/", moves with the arrows and opens a menu with Enter', async () => {
    const shelf = await fx.desk.core.handlers['shelf.list']({});
    const target = shelf.entries[shelf.entries.length - 1]!;
    await page.keyboard.press('/');
    await page.keyboard.type(target.username.slice(0, -1));
    await page.locator('[data-testid="shelf-count"]', { hasText: /^1 of / }).waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('listbox');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: new RegExp(`@${target.username}`) }).waitFor();
  });

  it('reaches Buy with Tab, closes the confirmation with Esc, pays with Enter and reads', async () => {
    await page.locator('[data-testid="price"]').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: /^Buy / }).and(page.locator(':enabled')).waitFor();
    await tabTo(page, /^Buy \d+ reports? for/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Confirm the purchase' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Closing the dialog gives focus back to the button that opened it.
    expect(await focusedText(page)).toMatch(/^Buy \d+ reports? for/);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await tabTo(page, /^Pay \$/, 10);
    await shot(page, 'keyboard-confirm');
    await page.keyboard.press('Enter');
    await page
      .locator('[data-testid="purchase-outcome"]', { hasText: 'Bought' })
      .waitFor({ timeout: 30_000 });
    await tabTo(page, /^Read now$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Summary' }).waitFor();
  });
});
