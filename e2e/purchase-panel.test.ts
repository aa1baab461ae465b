/**
 * The menu's purchase panel in browser mode, everything real (service, anvil, core in its worker, web host,
 * Chromium), with a rewriting proxy between the desk and the service where a test needs the service to
 * change its mind: each step of a fast purchase from core's events, focus on the result, the result gone
 * with the choice, owning everything said as such, addresses shortened with copy, one click to pay a price
 * that changed, and long errors that stay inside the panel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { editChallenge, startHostileProxy, type HostileProxy } from '../test/core/hostile-proxy';
import { shot } from './browser';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { filterAndOpen, openShelf, waitForPrice } from './flow';

let fx: DeskFixture;
let page: Page;
let proxy: HostileProxy;
let handles: string[] = [];
const UNIT_PRICE = 0.02;

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 5, minReportsPerHandle: 3, maxReportsPerHandle: 3 }, unitPriceUsd: UNIT_PRICE },
    serviceUrl: async (stack) => {
      proxy = await startHostileProxy(stack.baseUrl);
      return proxy.url;
    },
    demoKey: (stack) => stack.buyerKeys[1]!,
  });
  page = fx.page;
  handles = (await fx.desk.core.handlers['shelf.list']({})).entries.map((e) => e.username);
  await page
    .context()
    .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: fx.desk.host.origin });
});

afterAll(async () => {
  await fx?.close();
  await proxy?.close();
});

async function openMenu(handle: string): Promise<void> {
  await openShelf(page);
  await filterAndOpen(page, handle);
}

const panel = () => page.locator('aside[aria-label="Purchase"]');
const nothingToPrice = () => panel().locator('[data-testid="nothing-to-price"]');

async function payShownPrice(): Promise<void> {
  await page.getByRole('button', { name: /^Buy \d+ reports? for / }).click();
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

async function noHorizontalScroll(): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
}

// Order: the second and third tests read what the first one's purchase left: the panel's last result shown
// with the choice it was for (in this page, not in core), and the payee that purchase pinned. Setting that up
// again would be the first test again; the tests after them open their own menus and set their own proxy.
describe('the purchase panel', () => {
  it('lists every step of a fast purchase from core’s events, without polling, and focuses the result', async () => {
    await openMenu(handles[0]!);
    await waitForPrice(page, '$0.06');
    const rpcCalls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/rpc/')) rpcCalls.push(url.pathname.slice('/rpc/'.length));
    });
    await payShownPrice();
    await panel().locator('[data-testid="purchase-outcome"]', { hasText: 'Bought 3 reports' }).waitFor();
    await panel()
      .locator('[data-testid="purchase-steps"] li', { hasText: 'Done' })
      .waitFor({ timeout: 10_000 });
    const steps = await panel().locator('[data-testid="purchase-steps"] li').allTextContents();
    expect(steps.map((s) => s.replace(/^\S+\s/, ''))).toEqual([
      'Signing the payment',
      'Payment signed',
      'Written to the ledger',
      'Paid request sent',
      'Answer received',
      'Reports stored',
      'Done',
    ]);
    const during = rpcCalls.slice(0, rpcCalls.indexOf('purchase.start') + 1);
    expect(during).toContain('purchase.start');
    // The panel learns the steps from events: nothing asks purchases.list while paying.
    expect(rpcCalls.filter((m) => m === 'purchases.list')).toEqual([]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? 'body')).toBe(
      'purchase-result',
    );
    await shot(page, 'purchase-panel-steps');
  });

  it('says once that every report is owned, unticks them, and hides the last result with another choice', async () => {
    // Just bought: the result is the one sentence; the reasons nothing is left to price would repeat it.
    await page.getByTestId('plan-your-choice').filter({ hasText: 'Your choice (0 reports)' }).waitFor();
    expect(await nothingToPrice().count()).toBe(0);
    const boxes = await page.getByRole('checkbox', { name: /^Choose report of / }).all();
    for (const box of boxes) {
      expect(await box.isChecked()).toBe(false);
      expect(await box.getAttribute('aria-disabled')).toBe('true');
    }
    await page.getByRole('radio', { name: 'Individual reports' }).check();
    await panel().locator('[data-testid="purchase-outcome"]').waitFor({ state: 'detached' });
    await nothingToPrice().filter({ hasText: 'You already own every report of this handle' }).waitFor();
    // An owned report cannot be ticked until buying owned ones again is chosen.
    await boxes[0]!.click({ force: true });
    expect(await boxes[0]!.isChecked()).toBe(false);
    expect(await panel().textContent()).not.toContain('Nothing chosen.');
    expect(await panel().locator('[data-testid="purchase-steps"]').count()).toBe(0);
    await page.getByRole('checkbox', { name: 'Let me choose reports I own again' }).check();
    await boxes[0]!.check();
    await waitForPrice(page, '$0.02');
    await boxes[0]!.uncheck();
    await page.getByRole('checkbox', { name: 'Let me choose reports I own again' }).uncheck();
    await nothingToPrice().filter({ hasText: 'You already own every report' }).waitFor();
    // Back to the choice it was made for: its result, and only that, is shown with it.
    await page.getByRole('radio', { name: /^All \d+ \(/ }).check();
    await panel().locator('[data-testid="purchase-outcome"]', { hasText: 'Bought 3 reports' }).waitFor();
    expect(await nothingToPrice().count()).toBe(0);
    await shot(page, 'purchase-panel-owned-after-done');
  });

  it('shows payee and wallet shortened, whole on hover, and copies them whole', async () => {
    await openMenu(handles[1]!);
    await waitForPrice(page, '$0.06');
    const payee = getAddress(fx.stack.payTo);
    const shown = panel().locator('[data-testid="payee"]');
    expect(await shown.textContent()).toBe(`${payee.slice(0, 6)}…${payee.slice(-4)}`);
    expect(await shown.getAttribute('title')).toBe(payee);
    await panel()
      .getByRole('button', { name: `Copy the payee ${payee}` })
      .click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(payee);

    const wallet = privateKeyToAccount(fx.stack.buyerKeys[1]! as `0x${string}`).address;
    const walletShown = panel().locator('[data-testid="wallet-address"]');
    expect(await walletShown.textContent()).toBe(`${wallet.slice(0, 6)}…${wallet.slice(-4)}`);
    expect(await walletShown.getAttribute('title')).toBe(wallet);
    await panel()
      .getByRole('button', { name: `Copy the wallet address ${wallet}` })
      .click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(wallet);
    // Pinned by the first purchase: the same payee, told as such.
    expect(await panel().textContent()).toContain('same payee as before');
  });

  it('offers one click to pay the price the service asks now, when it changed since confirming', async () => {
    // The service quotes half its price, then goes quiet for a moment and comes back with the real one.
    proxy.mutate = (challenge) => {
      const c = challenge as { accepts: { amount: string }[]; extensions: { unitPriceUsd: number } };
      return editChallenge(
        { amount: (BigInt(c.accepts[0]!.amount) / 2n).toString() },
        { unitPriceUsd: c.extensions.unitPriceUsd / 2 },
      )(challenge);
    };
    await openMenu(handles[2]!);
    await waitForPrice(page, '$0.03');
    proxy.mutate = null;
    proxy.dropNext = 1;
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.locator('[data-testid="stale"]').waitFor();
    await payShownPrice();
    const refusal = panel().locator('[data-testid="purchase-refusal"]');
    await refusal.waitFor({ timeout: 20_000 });
    expect(await refusal.textContent()).toContain(
      'You confirmed 0.03 USDC; the service now asks 0.06 USDC ($0.06).',
    );
    await shot(page, 'purchase-panel-price-changed');
    await refusal.getByRole('button', { name: 'Pay the new price: 0.06 USDC' }).click();
    await panel()
      .locator('[data-testid="purchase-outcome"]', { hasText: 'Bought 3 reports for $0.06.' })
      .waitFor({ timeout: 30_000 });
    expect((await fx.desk.core.handlers['library.list']({ handle: handles[2]! })).items).toHaveLength(3);
  });

  it('keeps a long service error inside the panel, with no horizontal scrollbar, at 900 and 1280 px', async () => {
    proxy.mutate = editChallenge({ scheme: `exact-${'z'.repeat(300)}` });
    try {
      for (const width of [900, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await openMenu(handles[3]!);
        const error = panel().locator('[data-testid="quote-error"]');
        await error.waitFor({ timeout: 20_000 });
        const { scrollWidth, clientWidth } = await noHorizontalScroll();
        expect(scrollWidth, `at ${width} px`).toBeLessThanOrEqual(clientWidth);
        const inside = await page.evaluate(() => {
          const box = document.querySelector('aside[aria-label="Purchase"]')!.getBoundingClientRect();
          const text = document.querySelector('[data-testid="quote-error"]')!.getBoundingClientRect();
          return text.left >= box.left && text.right <= box.right;
        });
        expect(inside, `at ${width} px`).toBe(true);
        await shot(page, `purchase-panel-error-${width}`);
      }
    } finally {
      proxy.mutate = null;
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
