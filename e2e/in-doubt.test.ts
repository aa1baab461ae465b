/**
 * The answer to a paid request is lost after the service settled it: the person is told the purchase is in
 * doubt and that Intel Desk will not pay again, and Purchases says what it waits for after checking the chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { shot } from './browser';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { buy, filterAndOpen, openShelf, waitForPrice } from './flow';
import { privateKeyToAccount } from 'viem/accounts';
import { balanceOf, ledgerRows, storedSnapshots } from '../test/core/helpers';

let fx: DeskFixture;
let proxy: { server: Server; url: string } | null = null;
let page: Page;
let settledAnswers = 0;

/** Forwards everything; a paid request is let through to settle, and its answer is thrown away. */
async function startAnswerLosingProxy(target: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
      const paid = headers.has('x-402-payment') || headers.has('x-payment');
      void fetch(`${target}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers }).then(
        async (answer) => {
          const body = Buffer.from(await answer.arrayBuffer());
          if (paid) {
            if (answer.status === 200) settledAnswers++;
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.status, {
            'Content-Type': answer.headers.get('content-type') ?? 'text/plain',
          });
          res.end(body);
        },
        () => req.socket.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 3, minReportsPerHandle: 2, maxReportsPerHandle: 3 } },
    serviceUrl: async (stack) => {
      proxy = await startAnswerLosingProxy(stack.baseUrl);
      return proxy.url;
    },
    demoKey: (stack) => stack.buyerKeys[0]!,
  });
  page = fx.page;
});

afterAll(async () => {
  await fx?.close();
  const server = proxy?.server;
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

describe('a paid answer lost on the way back', () => {
  // One test: what Purchases shows is about the purchase the first half makes, so neither half runs alone.
  it('says the purchase is in doubt, never pays it again, and Purchases says what it waits for', async () => {
    const shelf = await fx.desk.core.handlers['shelf.list']({});
    const handle = shelf.entries[0]!.username;
    const menu = await fx.desk.core.handlers['menu.get']({ handle });
    const usd = `$${(menu.reportCount * 0.01).toFixed(2)}`;
    const amount = BigInt(menu.reportCount) * 10_000n;
    const payer = privateKeyToAccount(fx.stack.buyerKeys[0]!).address;
    const before = await balanceOf(fx.stack, payer);
    await page.locator('.shelf-row').first().waitFor();
    await filterAndOpen(page, handle);
    await waitForPrice(page, usd);
    await buy(page, usd);
    const outcome = page.locator('[data-testid="purchase-outcome"]');
    expect(await outcome.getAttribute('class')).toContain('warn');
    expect(await outcome.textContent()).toContain('Intel Desk will not pay again for this');
    expect(settledAnswers).toBe(1);
    await shot(page, 'in-doubt-outcome');
    // The service settled it: exactly the quoted amount left the buyer, once; nothing was stored.
    expect(await balanceOf(fx.stack, payer)).toBe(before - amount);
    expect(ledgerRows(fx.dataDir)).toMatchObject([
      { state: 'in_doubt', amount: amount.toString(), handle, payer, service_url: proxy!.url },
    ]);
    expect(storedSnapshots(fx.dataDir)).toEqual([]);

    // Back at the same reports, the panel says why it will not buy them, before anyone clicks.
    await openShelf(page);
    await filterAndOpen(page, handle);
    await waitForPrice(page, usd);
    const note = page.locator('[data-testid="unresolved-purchase"]');
    await note.waitFor();
    expect(await note.textContent()).toContain('is in doubt: its payment may still settle');
    expect(
      await page.getByRole('button', { name: `Buy ${menu.reportCount} reports for ${usd}` }).isDisabled(),
    ).toBe(true);
    // And core refuses before signing, whatever a window asks.
    const quote = await fx.desk.core.handlers['quote.get']({ handle, selection: { kind: 'all' } });
    expect(quote.unresolved).toMatchObject({ state: 'in_doubt' });
    const refusal = await fx.desk.core.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    }).then(
      () => null,
      (error: unknown) => error as { code: string; message: string },
    );
    expect(refusal?.code).toBe('purchase_in_doubt');
    expect(refusal?.message).toMatch(/^An earlier purchase of these reports \(@/);
    expect(refusal?.message).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(settledAnswers).toBe(1);
    expect(await balanceOf(fx.stack, payer)).toBe(before - amount);
    expect(ledgerRows(fx.dataDir)).toHaveLength(1);

    await page.getByRole('link', { name: 'Purchases', exact: true }).click();
    await page.locator('.pill-in_doubt').waitFor();
    // Until the chain is checked nobody knows what moved: the price is shown as a ceiling, not a charge.
    const charged = page.locator('[data-testid="charged"]');
    expect(await charged.textContent()).toMatch(/^unknown · up to \$0\.0\d$/);
    await page.getByRole('button', { name: 'Check unfinished purchases' }).click();
    // Before the chain is checked the purchase waits for its authorization to expire; after, for redelivery.
    const waiting = page.locator('[data-testid="waiting-for"]', {
      hasText: 'Waiting for the service to deliver what was paid for.',
    });
    await waiting.waitFor({ timeout: 30_000 });
    expect(await charged.textContent()).toMatch(/^\$0\.0\d$/);
    expect(await page.locator('[data-testid="daily-spend"]').textContent()).toContain('not settled yet');
    // The reason names the settlement's transaction: the long hash wraps inside the window.
    expect(await page.locator('.purchase-error').first().textContent()).toMatch(/transaction 0x[0-9a-f]{64}/);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await shot(page, 'in-doubt-purchases');
    const ledger = await fx.desk.core.handlers['purchases.list']({});
    expect(ledger.purchases).toHaveLength(1);
    expect(ledger.purchases[0]).toMatchObject({ state: 'in_doubt', waitingFor: { kind: 'redelivery' } });
    expect(ledgerRows(fx.dataDir)[0]?.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf(fx.stack, payer)).toBe(before - amount);
  });
});
