/**
 * The demo's library secret in browser mode: Settings offers it, core uses it, and the page never holds it;
 * Dossiers then open without the person typing anything. With it set, a menu still sells: reading with the
 * secret is a second, explicit choice beside Buy, and each does what it says. A purchase's result opens its
 * receipt, which names the handle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageState } from './browser';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { filterAndOpen, openShelf, waitForPrice } from './flow';
import { shotAt } from './shot-widths';
import { addAxe, audit } from './axe';

const SECRET = 'e2e-demo-secret-7d31';
let fx: DeskFixture;
let handles: string[] = [];

beforeAll(async () => {
  fx = await openDeskFixture({
    beforeLoad: addAxe,
    stack: { seed: { handles: 2, minReportsPerHandle: 2, maxReportsPerHandle: 2 }, librarySecret: SECRET },
    demoLibrarySecret: true,
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
  handles = (await fx.desk.core.handlers['shelf.list']({})).entries.map((entry) => entry.username);
});

afterAll(() => fx?.close());

const panel = () => fx.page.locator('aside[aria-label="Purchase"]');

async function newestPurchase() {
  const { purchases } = await fx.desk.core.handlers['purchases.list']({});
  return [...purchases].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]!;
}

describe("the demo's library secret", () => {
  it('is one click in Settings, opens Dossiers, and never reaches the page', async () => {
    const { page } = fx;
    const handle = (await fx.desk.core.handlers['shelf.list']({})).entries[0]!.username;
    await page.getByRole('link', { name: 'Settings', exact: true }).first().click();
    await page.getByRole('button', { name: 'Use the demo secret' }).click();
    await page.locator('[data-testid="secret-state"]', { hasText: 'accepted by the service' }).waitFor();
    await page.getByRole('link', { name: 'Dossiers', exact: true }).click();
    await page.getByLabel('Handle to open').fill(handle);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('tab', { name: 'Posts' }).waitFor();
    expect(await pageState(page)).not.toContain(SECRET);
  });

  it('keeps Buy on every menu, and Buy pays: a payment, with a receipt that names the handle', async () => {
    const { page } = fx;
    await openShelf(page);
    await filterAndOpen(page, handles[0]!);
    await waitForPrice(page, '$0.02');
    await panel().locator('[data-testid="secret-read"]', { hasText: 'nothing is charged' }).waitFor();
    expect(await audit(page, 'menu with the library secret')).toEqual([]);
    await shotAt(page, 'demo-secret-menu');
    await page.getByRole('button', { name: 'Buy 2 reports for $0.02' }).click();
    await page.getByRole('button', { name: 'Pay $0.02' }).click();
    await panel()
      .locator('[data-testid="purchase-outcome"]', { hasText: 'Bought 2 reports for $0.02.' })
      .waitFor();
    const bought = await newestPurchase();
    expect(bought).toMatchObject({ paidWith: 'payment', state: 'completed', handle: handles[0] });
    expect(bought.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // The hash is not dumped as text: the receipt holds it, one click away.
    expect(await panel().textContent()).not.toContain(bought.txHash);
    await panel().getByRole('button', { name: 'View receipt' }).click();
    const dialog = page.getByRole('dialog', { name: `Receipt for @${handles[0]}` });
    await dialog.waitFor();
    expect(await dialog.locator('.receipt-fields').textContent()).toContain(`Handle@${handles[0]}`);
    expect(await dialog.textContent()).toContain(bought.txHash);
    expect(await audit(page, 'receipt from a purchase')).toEqual([]);
    await shotAt(page, 'purchase-receipt');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('reads with the secret only when asked, and then pays nothing', async () => {
    const { page } = fx;
    await openShelf(page);
    await filterAndOpen(page, handles[1]!);
    await waitForPrice(page, '$0.02');
    await page.getByRole('button', { name: 'Buy 2 reports for $0.02' }).waitFor();
    await page.getByRole('button', { name: 'Read 2 reports with the library secret' }).click();
    await panel()
      .locator('[data-testid="purchase-outcome"]', {
        hasText: 'Read 2 reports with the library secret; nothing was paid.',
      })
      .waitFor();
    expect(await newestPurchase()).toMatchObject({
      paidWith: 'library_secret',
      handle: handles[1],
      movedUnits: '0',
    });
  });
});
