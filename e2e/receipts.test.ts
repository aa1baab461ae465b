/**
 * Receipts on the Purchases screen: a real purchase over the reference service and anvil, its receipt
 * verified against the chain from the dialog, and the ledger exported as CSV through the browser download.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyAll } from '../test/core/helpers';
import { readFileSync } from 'node:fs';
import { privateKeyToAccount } from 'viem/accounts';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

let fx: DeskFixture;
let txHash: string;

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 1, minReportsPerHandle: 2, maxReportsPerHandle: 2 } },
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
  const core = fx.desk.core;
  const handle = (await core.handlers['shelf.list']({})).entries[0]!.username;
  const { outcome } = await buyAll(core, handle);
  expect(outcome.status).toBe('completed');
  txHash = (await core.handlers['purchases.list']({})).purchases[0]!.txHash!;
});

afterAll(() => fx?.close());

/** Each test opens the screen itself, so any of them runs alone (vitest -t) or in another order. */
async function openPurchases(): Promise<void> {
  await fx.page.getByRole('link', { name: 'Purchases', exact: true }).first().click();
  await fx.page.getByRole('button', { name: /^Receipt of the purchase/ }).waitFor();
}

describe('receipts on the Purchases screen', () => {
  it('shows the evidence and verifies it on chain', async () => {
    const { page } = fx;
    await openPurchases();
    await page.getByRole('button', { name: /^Receipt of the purchase/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Receipt' });
    await expect.poll(() => dialog.textContent()).toContain(txHash);
    const payer = privateKeyToAccount(fx.stack.buyerKeys[0]!).address;
    expect(await dialog.textContent()).toContain(payer);
    await dialog.getByRole('button', { name: 'Verify on chain' }).click();
    await expect
      .poll(() => dialog.getByTestId('verification').textContent())
      .toMatch(/^Verified on chain: block \d+/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
  });

  it('gives each receipt an address: reload reopens it and Back closes it', async () => {
    const { page } = fx;
    const purchaseId = (await fx.desk.core.handlers['purchases.list']({})).purchases[0]!.id;
    await openPurchases();
    await page.getByRole('button', { name: /^Receipt of the purchase/ }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/purchases/${purchaseId}`);
    await page.reload();
    const dialog = page.getByRole('dialog', { name: 'Receipt' });
    await expect.poll(() => dialog.textContent()).toContain(txHash);
    await page.goBack();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(new URL(page.url()).hash).toBe('#/purchases');
  });

  it('exports the purchases as CSV', async () => {
    const { page } = fx;
    await openPurchases();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^purchases-\d{4}-\d{2}-\d{2}_to_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await file.path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,completed,eip155:31337,`);
    expect(lines[1]!.endsWith(txHash)).toBe(true);
  });
});
