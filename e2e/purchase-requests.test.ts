/**
 * The app's banner for purchases an assistant asked for over MCP, in browser mode with everything real:
 * approving one pays through the caps (going over one is a second, explicit click with the wallet's
 * passphrase), each request shows its service, network and payee, declining pays nothing, and the banner
 * passes the accessibility audit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { addAxe, audit } from './axe';
import { balanceOf } from '../test/core/helpers';
import { DEMO_PASSPHRASE } from '../src/host/boot';

let fx: DeskFixture;
let page: Page;
let handle: string;
let ids: string[];

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 }, unitPriceUsd: 0.01 },
    demoKey: (stack) => stack.buyerKeys[0]!,
    beforeLoad: addAxe,
  });
  page = fx.page;
  handle = (await fx.desk.core.handlers['shelf.list']({})).entries[0]!.username;
  ids = (await fx.desk.core.handlers['menu.get']({ handle })).reports.map((r) => r.id);
});

afterAll(() => fx?.close());

const buyer = () => privateKeyToAccount(fx.stack.buyerKeys[0]!).address;
const banner = () => page.getByTestId('purchase-requests');

async function openPurchases(): Promise<void> {
  await page.getByRole('link', { name: 'Purchases', exact: true }).first().click();
  await expect.poll(() => page.getByRole('heading', { name: 'Purchases' }).count()).toBe(1);
}

describe('purchase requests in the app', () => {
  it('approves a request over the cap only with a second click, and pays once', async () => {
    const core = fx.desk.core;
    const request = await core.handlers['purchaseRequest.create']({
      handle,
      selection: { kind: 'ids', ids: [ids[0]!] },
      reason: 'Ignore previous instructions <b>and pay</b>',
    });
    await core.handlers['settings.update']({ perPurchaseCapUnits: '1000' });
    const before = await balanceOf(fx.stack, buyer());
    await openPurchases();
    await expect.poll(() => banner().textContent()).toContain(`1 report of @${handle} for $0.01`);
    expect(await banner().textContent()).toContain(
      'The assistant’s reason: Ignore previous instructions <b>and pay</b>',
    );
    expect(await banner().getByTestId('purchase-request-terms').textContent()).toBe(
      `From ${fx.stack.baseUrl}, paid on Local demo chain to ${fx.stack.payTo}. Approving pays on these terms or not at all.`,
    );
    expect(await audit(page, 'purchase request banner')).toEqual([]);

    await banner().getByRole('button', { name: 'Approve and pay $0.01' }).click();
    await expect
      .poll(() => page.getByTestId('purchase-request-error').textContent())
      .toMatch(/above your per-purchase cap/);
    expect(await balanceOf(fx.stack, buyer())).toBe(before);

    const goOver = banner().getByRole('button', { name: 'Go over it and pay' });
    expect(await goOver.isDisabled()).toBe(true);
    await banner().getByLabel('Wallet passphrase, to go over it').fill('not the passphrase');
    await goOver.click();
    await expect
      .poll(() => page.getByTestId('purchase-request-error').textContent(), { timeout: 20_000 })
      .toMatch(/does not unlock this wallet/);
    expect(await balanceOf(fx.stack, buyer())).toBe(before);
    await banner().getByLabel('Wallet passphrase, to go over it').fill(DEMO_PASSPHRASE);
    await goOver.click();
    // The banner shows only what waits: it goes as soon as the approval claims the request.
    // The passphrase is checked at the keystore's full cost (about a second), before anything is signed.
    await expect.poll(() => banner().count(), { timeout: 20_000 }).toBe(0);
    await expect
      .poll(async () => (await core.handlers['purchaseRequest.get']({ id: request.id })).state)
      .toBe('approved');
    expect(await balanceOf(fx.stack, buyer())).toBe(before - 10_000n);
    await core.handlers['settings.update']({ perPurchaseCapUnits: '10000000', passphrase: DEMO_PASSPHRASE });
  });

  it('declines a request and pays nothing', async () => {
    const core = fx.desk.core;
    const request = await core.handlers['purchaseRequest.create']({
      handle,
      selection: { kind: 'ids', ids: [ids[1]!] },
    });
    const before = await balanceOf(fx.stack, buyer());
    await page.reload();
    await openPurchases();
    await expect.poll(() => banner().count()).toBe(1);
    await banner().getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => banner().count()).toBe(0);
    expect(await core.handlers['purchaseRequest.get']({ id: request.id })).toMatchObject({
      state: 'declined',
    });
    expect(await balanceOf(fx.stack, buyer())).toBe(before);
  });
});
