/**
 * Spend you can see and steer, in browser mode with everything real (service, anvil, core, web host,
 * Chromium): the menu plans All (the missing ones), All with the owned ones again and the choice from the
 * last price until the live quote confirms one; Purchases shows today, this month and in all with charts the keyboard can read; a budget set
 * in Settings makes the next purchase of the handle ask for the confirmation the caps ask for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { filterAndOpen, openShelf } from './flow';
import { addAxe, audit } from './axe';
import { privateKeyToAccount } from 'viem/accounts';
import { balanceOf, ledgerRows } from '../test/core/helpers';
import { expectSettledAsRecorded } from '../test/core/chain-checks';
import { sameDayOffset } from '../test/core/clock';
import { DEMO_PASSPHRASE } from '../src/host/boot';

let fx: DeskFixture;
let page: Page;
let handle: string;
// "today" counts the purchase made in beforeAll on the desk's day, which must not change during the file.
const clockOffsetMs = sameDayOffset();

beforeAll(async () => {
  fx = await openDeskFixture({
    env: { ...process.env, INTEL_DESK_CLOCK_OFFSET_MS: String(clockOffsetMs) },
    stack: { seed: { handles: 2, minReportsPerHandle: 4, maxReportsPerHandle: 4 }, unitPriceUsd: 0.01 },
    demoKey: (stack) => stack.buyerKeys[0]!,
    beforeLoad: addAxe,
  });
  page = fx.page;
  const core = fx.desk.core;
  handle = (await core.handlers['shelf.list']({})).entries[0]!.username;
  // Two of the four reports are owned already: the last price paid is $0.01 a report.
  const ids = (await core.handlers['menu.get']({ handle })).reports.map((r) => r.id);
  const quote = await core.handlers['quote.get']({
    handle,
    selection: { kind: 'ids', ids: ids.slice(0, 2) },
  });
  const bought = await core.handlers['purchase.start']({
    quoteId: quote.quoteId,
    confirmedAmount: quote.amount,
  });
  expect(bought.status).toBe('completed');
});

afterAll(() => fx?.close());

const planned = (name: string) => page.getByTestId(`plan-${name}`);
const nav = (name: string) => page.getByRole('link', { name, exact: true }).first().click();

describe('spend you can see and steer', () => {
  it('plans the menu from the last price, then from the live quote', async () => {
    // The live quote is held back until the estimates have been seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/rpc/quote.get', async (route: Route) => {
      await held;
      await route.continue();
    });
    await openShelf(page);
    await filterAndOpen(page, handle);
    const rows = page.locator('table[aria-label="Reports"] tbody tr');
    await expect.poll(() => rows.filter({ hasText: /Owned Read$/ }).count()).toBe(2);
    await expect.poll(() => rows.filter({ hasText: /Not owned$/ }).count()).toBe(2);
    await expect
      .poll(() => page.getByTestId('plan-source').textContent())
      .toMatch(
        /^Estimates at \$0\.01 per report, the last price paid on [A-Z][a-z]{2} \d{1,2}, \d{4}, until the live/,
      );
    expect(await planned('all').textContent()).toBe('All 4, the 2 owned again≈ $0.04 estimate');
    expect(await planned('missing-only').textContent()).toBe('All 4 (2 missing)≈ $0.02 estimate');
    expect(await planned('your-choice').textContent()).toBe('Your choice (2 reports)≈ $0.02 estimate');
    // The menu's "All" choice says it in the same words as the plan that prices it.
    expect(await page.getByRole('radio', { name: 'All 4 (2 missing)' }).isChecked()).toBe(true);

    release();
    await expect
      .poll(() => planned('your-choice').textContent())
      .toBe('Your choice (2 reports)$0.02 live quote');
    expect(await page.getByTestId('plan-source').textContent()).toBe(
      'Estimates at $0.01 per report, the price of the live quote.',
    );
    expect(await audit(page, 'menu planner')).toEqual([]);
    expect(await planned('all').textContent()).toBe('All 4, the 2 owned again≈ $0.04 estimate');
    await page.unroute('**/rpc/quote.get');
  });

  it('shows today once, this month and in all, with charts the arrow keys read', async () => {
    await nav('Purchases');
    await expect.poll(() => page.getByTestId('daily-spend').textContent()).toContain('Today: $0.02 of your');
    // The daily cap's meter says what today cost; the totals below it do not say it a second time.
    expect(
      await page
        .getByRole('main')
        .getByText(/\btoday\b/i)
        .count(),
    ).toBe(1);
    expect(await page.getByTestId('spend-month').textContent()).toBe('$0.02');
    expect(await page.getByTestId('spend-lifetime').textContent()).toBe('$0.02');
    const byDay = page.getByTestId('spend-by-day');
    await byDay.locator('.recharts-bar-rectangle').first().waitFor();
    // The x axis is dated as the locale writes it ("Nov 23" in Chromium's en-US), the y axis in round dollars.
    const ticks = (chart: typeof byDay, axis: 'x' | 'y') =>
      chart
        .locator(`.recharts-${axis}Axis-tick-labels .recharts-cartesian-axis-tick-value`)
        .allTextContents();
    expect(await ticks(byDay, 'x')).not.toHaveLength(0);
    expect((await ticks(byDay, 'x')).every((tick) => /^[A-Z][a-z]{2} \d{1,2}$/.test(tick))).toBe(true);
    const dollars = (await ticks(byDay, 'y')).map((tick) => Number(tick.replace(/^\$/, '')));
    expect(dollars[0]).toBe(0);
    expect(dollars.at(-1)).toBeGreaterThanOrEqual(0.02);
    // Whole cents, evenly spaced: no $0.085.
    for (const [i, value] of dollars.entries()) {
      expect(Math.round(value * 100) / 100).toBe(value);
      expect(value).toBeCloseTo(i * (dollars[1]! - dollars[0]!), 6);
    }
    const byHandle = page.getByTestId('spend-by-handle');
    expect(await ticks(byHandle, 'y')).toEqual([`@${handle}`]);

    // Focus the day chart and walk to its last day (today) with the arrow keys: the tooltip reads it.
    await byDay.locator('svg[role="application"]').focus();
    for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => byDay.locator('.recharts-tooltip-wrapper').textContent())
      .toMatch(/Spent.*\$0\.02/);
    expect(await audit(page, 'purchases with charts')).toEqual([]);
  });

  it('sets a budget in Settings; the next purchase over it asks for the cap confirmation', async () => {
    await nav('Settings');
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Budgets per handle' }) });
    await form.getByLabel('Handle').fill(handle);
    await form.getByLabel('Per month (USD)').fill('0.03');
    await form.getByRole('button', { name: 'Set budget' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toBe(`@${handle}: $0.03 a month.`);
    expect(await form.getByRole('list', { name: 'Budgets' }).textContent()).toContain(
      `@${handle}: $0.03 a month, $0.02 spent this month`,
    );

    await openShelf(page);
    await filterAndOpen(page, handle);
    // The warning gives the figures: spent this month, the budget, and this purchase's price.
    await page
      .getByTestId('over-budget')
      .filter({
        hasText: `Over the monthly budget for @${handle}: $0.02 spent this month of $0.03, and this purchase costs $0.02.`,
      })
      .waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Buy 2 reports for $0.02' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm the purchase' });
    const pay = dialog.getByRole('button', { name: 'Pay $0.02' });
    expect(await pay.isDisabled()).toBe(true);
    await dialog.getByLabel('I accept going over my spending cap or budget').check();
    // Going over it with the keystore also needs the wallet's passphrase (decision 0022).
    expect(await pay.isDisabled()).toBe(true);
    await dialog.getByLabel('Wallet passphrase, to go over it').fill(DEMO_PASSPHRASE);
    const payer = privateKeyToAccount(fx.stack.buyerKeys[0]!).address;
    const before = await balanceOf(fx.stack, payer);
    await pay.click();
    await page
      .locator('[data-testid="purchase-outcome"]', { hasText: 'Bought 2 reports' })
      .waitFor({ timeout: 30_000 });
    // Where the money is: one payment of $0.02 over the budget, in the ledger as it settled on chain.
    expect(before - (await balanceOf(fx.stack, payer))).toBe(20_000n);
    const rows = ledgerRows(fx.dataDir);
    expect(rows.map((row) => [row.handle, row.report_count, row.amount, row.state])).toEqual([
      [handle, 2, '20000', 'completed'],
      [handle, 2, '20000', 'completed'],
    ]);
    for (const row of rows) await expectSettledAsRecorded(fx.stack, row);

    await nav('Purchases');
    await expect.poll(() => page.getByTestId('spend-month').textContent()).toBe('$0.04');
    const budgets = page.getByRole('table', { name: 'Handle budgets this month' });
    expect(await budgets.locator('tbody tr').first().textContent()).toBe(`@${handle}$0.04 (over)$0.03`);
    await nav('Settings');
    await page.getByRole('list', { name: 'Budgets' }).waitFor();
    // $0.04 spent against $0.03 is flagged where the budget is set, too.
    expect(await page.getByRole('list', { name: 'Budgets' }).locator('li').first().textContent()).toMatch(
      new RegExp(`^@${handle}: \\$0\\.03 a month, \\$0\\.04 spent this month · over by \\$0\\.01`),
    );
    expect(await audit(page, 'settings with a budget')).toEqual([]);
  });
});
