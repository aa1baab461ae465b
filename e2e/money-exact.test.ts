/**
 * Money typed in Settings is kept to the base unit (decision 0034), in browser mode with everything real
 * (service priced at $0.0125 a report, anvil, core, web host, Chromium): a cap of 0.0125 is saved as 12500
 * units, a report priced exactly at it is bought without a second confirmation, one unit less of cap puts
 * the same price over it, and a seventh decimal is refused in the form with nothing saved. Raising a cap again
 * asks for the wallet's passphrase (decision 0022), and a wrong one saves nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { filterAndOpen, openShelf, waitForPrice } from './flow';
import { balanceOf } from '../test/core/helpers';
import { DEMO_PASSPHRASE } from '../src/host/boot';

let fx: DeskFixture;
let page: Page;
let handles: string[];

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 2, minReportsPerHandle: 1, maxReportsPerHandle: 1 }, unitPriceUsd: 0.0125 },
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
  page = fx.page;
  handles = (await fx.desk.core.handlers['shelf.list']({})).entries.map((entry) => entry.username);
});

afterAll(() => fx?.close());

const nav = (name: string) => page.getByRole('link', { name, exact: true }).first().click();
const capsForm = () => page.locator('form', { has: page.getByRole('heading', { name: 'Spending caps' }) });
const settings = () => fx.desk.core.handlers['settings.get']({});

async function setPerPurchaseCap(typed: string): Promise<string> {
  await nav('Settings');
  await capsForm().getByLabel('Per purchase (USD)').fill(typed);
  await capsForm().getByRole('button', { name: 'Save caps' }).click();
  const message = capsForm().getByRole('status');
  await expect.poll(() => message.textContent()).not.toBe('');
  return (await message.textContent()) ?? '';
}

describe('a cap typed in Settings', () => {
  it('refuses a seventh decimal with a clear message and saves nothing', async () => {
    expect(await setPerPurchaseCap('0.0000001')).toBe(
      'Per purchase: USDC has 6 decimals: give at most 6 digits after the point (0.0000001 has 7).',
    );
    expect(await capsForm().getByLabel('Per purchase (USD)').getAttribute('aria-invalid')).toBe('true');
    // Only the field at fault is marked: the daily cap was fine.
    expect(await capsForm().getByLabel('Per day (USD)').getAttribute('aria-invalid')).not.toBe('true');
    expect((await settings()).perPurchaseCapUnits).toBe('5000000');
    expect(await setPerPurchaseCap('-1')).toBe('Per purchase: An amount cannot be negative.');
    expect((await settings()).perPurchaseCapUnits).toBe('5000000');
  });

  it('keeps 0.0125 exactly, and a report priced at the cap is bought without going over it', async () => {
    expect(await setPerPurchaseCap('0.0125')).toBe('Saved.');
    expect((await settings()).perPurchaseCapUnits).toBe('12500');
    // The form shows the saved cap as it was typed, after a reload too.
    await page.reload();
    await nav('Settings');
    await expect.poll(() => capsForm().getByLabel('Per purchase (USD)').inputValue()).toBe('0.0125');

    await openShelf(page);
    await filterAndOpen(page, handles[0]!);
    await waitForPrice(page, '$0.0125');
    expect(await page.getByTestId('over-purchase-cap').count()).toBe(0);
    const payer = privateKeyToAccount(fx.stack.buyerKeys[0]!).address;
    const before = await balanceOf(fx.stack, payer);
    await page.getByRole('button', { name: 'Buy 1 report for $0.0125' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm the purchase' });
    await dialog.getByTestId('confirm-amount').filter({ hasText: '$0.0125' }).waitFor();
    await dialog.getByRole('button', { name: 'Pay $0.0125' }).click();
    await page
      .locator('[data-testid="purchase-outcome"]', { hasText: 'Bought 1 report for $0.0125.' })
      .waitFor({ timeout: 30_000 });
    expect(before - (await balanceOf(fx.stack, payer))).toBe(12_500n);

    await nav('Purchases');
    await expect
      .poll(() => page.getByTestId('daily-spend').textContent())
      .toContain('Today: $0.0125 of your $20.00 daily cap · per purchase cap $0.0125');
  });

  it('puts the same price over a cap one base unit lower, and asks before paying it', async () => {
    expect(await setPerPurchaseCap('0.012499')).toBe('Saved.');
    expect((await settings()).perPurchaseCapUnits).toBe('12499');
    await openShelf(page);
    await filterAndOpen(page, handles[1]!);
    await waitForPrice(page, '$0.0125');
    await page
      .getByTestId('over-purchase-cap')
      .filter({ hasText: '$0.0125 is above your per-purchase cap of $0.012499.' })
      .waitFor();
    await page.getByRole('button', { name: 'Buy 1 report for $0.0125' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm the purchase' });
    expect(await dialog.getByRole('button', { name: 'Pay $0.0125' }).isDisabled()).toBe(true);
  });

  it('raises a cap only with the wallet passphrase, typed in the form', async () => {
    // The purchase the test before left unconfirmed is cancelled.
    await page
      .getByRole('dialog', { name: 'Confirm the purchase' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    expect(await setPerPurchaseCap('5')).toMatch(
      /^Raising the per-purchase cap needs the wallet's passphrase/,
    );
    expect((await settings()).perPurchaseCapUnits).toBe('12499');
    const passphrase = capsForm().getByLabel('Wallet passphrase, to raise a cap');
    const save = async (typed: string, said: RegExp) => {
      await passphrase.fill(typed);
      await capsForm().getByRole('button', { name: 'Save caps' }).click();
      // The passphrase is checked at the keystore's full cost (about a second).
      await expect
        .poll(() => capsForm().getByRole('status').textContent(), { timeout: 20_000 })
        .toMatch(said);
    };
    await save('not the passphrase', /does not unlock this wallet/);
    expect((await settings()).perPurchaseCapUnits).toBe('12499');
    await save(DEMO_PASSPHRASE, /^Saved\.$/);
    expect((await settings()).perPurchaseCapUnits).toBe('5000000');
  });
});
