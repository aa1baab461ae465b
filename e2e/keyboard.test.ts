/** Keyboard only: find a handle, open its menu, buy, confirm and read without touching the mouse. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from './browser';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

let fx: DeskFixture;
let page: Page;

const focusedText = (p: Page) => p.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

const focusedLabel = (p: Page) => p.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');

/**
 * Tabs forward until the focused element's text matches, as a person would; fails after `limit` presses.
 * Returns the number of presses it took.
 */
async function tabTo(p: Page, pattern: RegExp, limit = 80): Promise<number> {
  for (let i = 1; i <= limit; i++) {
    await p.keyboard.press('Tab');
    if (pattern.test(await focusedText(p))) return i;
  }
  throw new Error(`No element matching ${pattern} is reachable with ${limit} Tabs`);
}

/** What the purchase panel's status region said, and any live region that appeared, while paying. */
interface Watched {
  texts: string[];
  insertedLiveRegions: string[];
  sameStatusRegion: boolean;
}
const PROGRESS =
  /^(Signing the payment…|Payment signed and written to the ledger…|Paid request sent; waiting for the reports…|Reports stored\.)$/;

async function watchPurchasePanel(p: Page): Promise<void> {
  await p.evaluate(() => {
    const panel = document.querySelector('aside[aria-label="Purchase"]');
    const status = panel?.querySelector('[role="status"][data-testid="purchase-progress"]');
    if (!panel || !status) throw new Error('The purchase panel has no status region before paying');
    const texts = [status.textContent ?? ''];
    const insertedLiveRegions: string[] = [];
    const live = '[role="status"], [role="alert"], [aria-live]';
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          for (const region of [node, ...node.querySelectorAll(live)].filter((e) => e.matches(live)))
            insertedLiveRegions.push(region.outerHTML.slice(0, 120));
        }
      const text = status.textContent ?? '';
      if (text !== texts.at(-1)) texts.push(text);
    }).observe(panel, { subtree: true, childList: true, characterData: true });
    (window as unknown as { watched: () => Watched }).watched = () => ({
      texts,
      insertedLiveRegions,
      sameStatusRegion: panel.querySelector('[data-testid="purchase-progress"]') === status,
    });
  });
}

beforeAll(async () => {
  fx = await openDeskFixture({
    // Sixteen reports a handle, as in the walk of issue 28 that took 21 Tabs to reach Buy.
    stack: { seed: { handles: 6, minReportsPerHandle: 16, maxReportsPerHandle: 16 } },
    demoKey: (stack) => stack.buyerKeys[2]!,
  });
  page = fx.page;
  await page.locator('.shelf-row').first().waitFor();
});

afterAll(() => fx?.close());

// Order: the second test goes on from the menu the first one opened with the keyboard. Together they are
// one keyboard-only visit; opening the menu another way to run the second alone would let the mouse in.
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
    // Navigation is links, and the Shelf's says it is where the menu is.
    const shelfLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shelf' });
    expect(await shelfLink.getAttribute('aria-current')).toBe('page');
    expect(await shelfLink.getAttribute('href')).toBe('#/shelf');
  });

  it('gives the report list one tab stop, moved with the arrows, and a unique name to every checkbox', async () => {
    await page.locator('table[aria-label="Reports"] tbody tr').nth(15).waitFor();
    const names = await page
      .getByRole('checkbox')
      .evaluateAll((boxes) =>
        boxes.map((box) => box.getAttribute('aria-label') ?? box.closest('label')?.textContent ?? ''),
      );
    expect(names.length).toBeGreaterThanOrEqual(16);
    expect(new Set(names).size).toBe(names.length);
    for (let presses = 0; !/^Choose report of /.test(await focusedLabel(page)); presses++) {
      if (presses === 12) throw new Error('The report list is not reachable with 12 Tabs');
      await page.keyboard.press('Tab');
    }
    expect(await focusedLabel(page)).toMatch(/\(1 of 16\)$/);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focusedLabel(page)).toMatch(/\(3 of 16\)$/);
    await page.keyboard.press('End');
    expect(await focusedLabel(page)).toMatch(/\(16 of 16\)$/);
    await page.keyboard.press('Home');
    expect(await focusedLabel(page)).toMatch(/\(1 of 16\)$/);
    // Back to the top of the screen, the way the menu opened.
    await page.locator('main').focus();
  });

  it('reaches Buy with Tab, closes the confirmation with Esc, pays with Enter, hears the progress and reads', async () => {
    await page.locator('[data-testid="price"]').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: /^Buy / }).and(page.locator(':enabled')).waitFor();
    // From the top of the menu: the first-run welcome's three (the syntax link, Start on the Shelf, Close),
    // the back link, Refresh, the choice, Tick all and Tick none, the report list (one stop for 16 reports),
    // the payee's Copy, Buy.
    expect(await tabTo(page, /^Buy \d+ reports? for/, 11)).toBeLessThanOrEqual(11);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Confirm the purchase' });
    await dialog.waitFor();
    // The dialog opens on its safe action, not on the first thing in it (the payee's Copy).
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    expect(await focusedText(page)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Closing the dialog gives focus back to the button that opened it.
    expect(await focusedText(page)).toMatch(/^Buy \d+ reports? for/);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await tabTo(page, /^Pay \$/, 10);
    await shot(page, 'keyboard-confirm');
    await watchPurchasePanel(page);
    await page.keyboard.press('Enter');
    // Buy is disabled while paying: focus goes to the progress, not to <body>.
    await page.waitForFunction(() => document.activeElement?.classList.contains('purchase-result'));
    await page
      .locator('[data-testid="purchase-outcome"]', { hasText: 'Bought' })
      .waitFor({ timeout: 30_000 });
    const outcome = (await page.locator('[data-testid="purchase-outcome"] p').first().textContent()) ?? '';
    expect(outcome).toMatch(/^Bought \d+ reports? for \$\d+\.\d{2}\.$/);
    const watched = await page.evaluate(() => (window as unknown as { watched: () => Watched }).watched());
    // Screen readers announce changes of a live region that is already there, not one inserted with its text.
    expect(watched.insertedLiveRegions).toEqual([]);
    expect(watched.sameStatusRegion).toBe(true);
    expect(watched.texts[0]).toBe('');
    expect(watched.texts.slice(1, -1).length).toBeGreaterThan(0);
    expect(watched.texts.slice(1, -1).every((t) => PROGRESS.test(t))).toBe(true);
    expect(watched.texts.at(-1)).toBe(outcome);
    // Focus stays on the outcome after success; the next Tab is its "Read now".
    expect(await page.evaluate(() => document.activeElement?.classList.contains('purchase-result'))).toBe(
      true,
    );
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Read now');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Summary' }).waitFor();
  });
});
