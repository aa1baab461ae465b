/**
 * What a newcomer's walk tripped over (issue 28), held in a real browser against the real service: the
 * Library table fits at 1280 and 900 px, small links are big enough to hit, the Shelf counts what is owned,
 * Help and the Library open the search syntax, Dossiers suggests handles, and the passphrase is rated while
 * it is typed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PASSPHRASE_HINT } from '../src/shared/passphrase';
import { addAxe, audit } from './axe';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { openShelf } from './flow';

let fx: DeskFixture;
let page: Page;
let partial: { handle: string; owned: number; total: number };

const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 3, minReportsPerHandle: 5, maxReportsPerHandle: 6 } },
    demoKey: (stack) => stack.buyerKeys[1]!,
    beforeLoad: addAxe,
  });
  page = fx.page;
  const core = fx.desk.core.handlers;
  const [first, second] = (await core['shelf.list']({})).entries;
  const buy = async (handle: string, take?: number) => {
    const ids = (await core['menu.get']({ handle })).reports.map((r) => r.id);
    const selection = take ? { kind: 'ids' as const, ids: ids.slice(0, take) } : { kind: 'all' as const };
    const quote = await core['quote.get']({ handle, selection });
    expect(
      (await core['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount })).status,
    ).toBe('completed');
    return ids.length;
  };
  partial = { handle: first!.username, owned: 2, total: await buy(first!.username, 2) };
  await buy(second!.username);
  const newest = (await core['library.list']({})).items[0]!;
  await core['report.tag']({ id: newest.id, action: 'add', tag: 'follow-up' });
  await core['searches.save']({ name: 'Gloomy weeks', query: 'sentiment<0 posts>50' });
  await core['settings.update']({ welcomeDismissed: true });
  await page.reload();
  await page.locator('.shelf-row').first().waitFor();
});

afterAll(() => fx?.close());

/** Cells whose text does not fit (the browser cut it with an ellipsis). */
function cutCells(p: Page, selector: string): Promise<string[]> {
  return p
    .locator(selector)
    .evaluateAll((cells) =>
      cells.filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent ?? ''),
    );
}

describe.each([1280, 900])('at %i px', (width) => {
  beforeAll(async () => {
    await page.setViewportSize({ width, height: 860 });
  });

  it('shows the Library table whole, without the page scrolling around it', async () => {
    await nav('Library');
    await page.locator('[data-testid="library-items"] tbody tr').first().waitFor();
    // The table scrolls itself; the page must not scroll as well.
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await cutCells(page, '.library-table th')).toEqual([]);
    // Handle, Date, Posts, Bought and Spent of every row are whole.
    for (const column of [1, 2, 4, 5, 6])
      expect(await cutCells(page, `.library-table tbody td:nth-child(${column})`)).toEqual([]);
    const handles = await page.locator('.library-table tbody td:nth-child(1)').allTextContents();
    expect(handles.length).toBeGreaterThan(0);
    for (const handle of handles) expect(handle).toMatch(/^@\S+$/);
    if (width === 1280) expect(await cutCells(page, '.library-table tbody td:nth-child(3)')).toEqual([]);
    // The saved searches' links are targets of at least 24 px (axe's target-size, with every other rule).
    expect(await audit(page, `library at ${width}`)).toEqual([]);
  });

  it("gives the wallet's Copy a target of at least 24 px in Settings", async () => {
    await nav('Settings');
    const copy = page.getByRole('button', { name: /^Copy the / }).first();
    await copy.waitFor();
    const box = await copy.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(24);
    expect(await audit(page, `settings at ${width}`)).toEqual([]);
  });
});

describe('a newcomer finds their way', () => {
  beforeAll(async () => {
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('marks on the Shelf how many of a handle’s reports are owned', async () => {
    await openShelf(page);
    const row = page.locator('.shelf-row', { hasText: `@${partial.handle}` });
    expect(await row.getByTestId('owned-mark').textContent()).toBe(
      ` · ${partial.owned} of ${partial.total} reports owned`,
    );
  });

  it('opens the search syntax from Help, with "?", and beside the search box', async () => {
    const syntax = page.getByRole('dialog', { name: 'Search syntax' });
    const help = page.getByRole('button', { name: 'Help', exact: true });
    const helpDialog = page.getByRole('dialog', { name: 'Help' });
    const showWelcome = async () => {
      await help.click();
      await helpDialog.getByRole('button', { name: 'Show the welcome' }).click();
    };
    await showWelcome();
    const welcome = page.getByTestId('welcome');
    await welcome.waitFor();
    // On the Shelf already: nothing says to start there.
    expect(await welcome.getByRole('button', { name: 'Start on the Shelf' }).count()).toBe(0);
    await welcome.getByRole('button', { name: 'see the search syntax' }).click();
    await syntax.waitFor();
    expect(await syntax.getByRole('row').count()).toBeGreaterThan(10);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Close');
    await page.keyboard.press('Escape');
    await syntax.waitFor({ state: 'hidden' });
    await welcome.getByRole('button', { name: 'Close' }).click();
    await welcome.waitFor({ state: 'hidden' });

    await nav('Library');
    await showWelcome();
    await welcome.getByRole('button', { name: 'Start on the Shelf' }).waitFor();
    await welcome.getByRole('button', { name: 'Close' }).click();
    await help.click();
    await helpDialog.getByRole('button', { name: 'Search syntax' }).click();
    await syntax.waitFor();
    await page.keyboard.press('Escape');
    await syntax.waitFor({ state: 'hidden' });
    await page.keyboard.press('?');
    await syntax.waitFor();
    await page.keyboard.press('Escape');
    await syntax.waitFor({ state: 'hidden' });
    const search = page.getByLabel('Search owned reports');
    await search.focus();
    await page.keyboard.press('?');
    await syntax.waitFor();
    await page.keyboard.press('Escape');
    expect(await search.inputValue()).toBe('');
    await page.getByRole('button', { name: 'Search syntax' }).click();
    await syntax.waitFor();
    await syntax.getByRole('button', { name: 'Close' }).click();
    await syntax.waitFor({ state: 'hidden' });
    // In a query, "?" is typed like any other character.
    await search.fill('energy');
    await search.press('?');
    expect(await search.inputValue()).toBe('energy?');
    expect(await syntax.isVisible()).toBe(false);
    await search.fill('');
  });

  it('suggests the shelf’s handles in the Dossiers handle field', async () => {
    await nav('Dossiers');
    const field = page.getByRole('combobox', { name: 'Handle to open' });
    await field.fill(partial.handle.slice(0, 4));
    const suggestions = page.getByTestId('handle-suggestions').locator('option');
    await expect
      .poll(() => suggestions.evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)))
      .toContain(partial.handle);
  });

  it('rates the passphrase while it is typed, and the error does not repeat the hint', async () => {
    await nav('Settings');
    const field = page.getByLabel('New passphrase for Intel Desk');
    const meter = page.getByTestId('passphrase-meter');
    await field.fill('desk pass');
    await meter.getByText('Too easy to guess: it has 9 characters, fewer than 12.').waitFor();
    await field.fill('passwordpassword');
    await meter.getByText(/^Too easy to guess: it would fall within 10 guesses \(repeated/).waitFor();
    await field.fill('copper lantern drifts over quiet marsh');
    await meter.getByText('Strong enough.').waitFor();
    expect(await page.getByRole('meter', { name: 'Passphrase strength' }).getAttribute('aria-valuenow')).toBe(
      '100',
    );
    await field.fill('passwordpassword');
    await meter.getByText(/^Too easy to guess/).waitFor();
    await page.getByLabel('Private key').fill(`0x${'11'.repeat(32)}`);
    await page.getByRole('button', { name: 'Import wallet' }).click();
    const error = page.getByText(/^That passphrase is too easy to guess/);
    await error.waitFor();
    expect(await error.textContent()).not.toContain(PASSPHRASE_HINT);
    expect(await page.getByText(PASSPHRASE_HINT).count()).toBe(1);
  });
});
