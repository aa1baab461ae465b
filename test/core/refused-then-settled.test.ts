/**
 * A refusal does not void a signed authorization. A gateway answers the paid request with the service's
 * 402 refusal and keeps the payment; it settles it later (a retrying gateway, found by the chaos run, seed 1).
 * The desk must hold the purchase in doubt until the authorization's window closes, so that the later
 * settlement shows as paid with its receipt, the reports stay blocked from a second payment, and the ledger
 * equals what moved on chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { balanceOf, deskFor, failure, PASSPHRASE, tempDir } from './helpers';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let gateway: Server;
const held: { url: string; payment: string }[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
  });
  // Free requests pass; a paid one is refused with the service's own words, and its payment kept.
  gateway = createServer((req, res) => {
    const payment = req.headers['x-402-payment'];
    if (typeof payment === 'string') {
      held.push({ url: req.url ?? '/', payment });
      res.writeHead(402, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: 'payment_rejected', message: 'the payment was rejected (busy)' }));
      return;
    }
    fetch(`${stack.baseUrl}${req.url ?? '/'}`, { headers: { accept: 'application/json' } })
      .then(async (upstream) => {
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        const required = upstream.headers.get('payment-required');
        if (required) headers['PAYMENT-REQUIRED'] = required;
        res.writeHead(upstream.status, headers);
        res.end(await upstream.text());
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  data = tempDir('desk-refused-then-settled-');
  desk = await deskFor(stack, data.dir, { serviceUrl: gatewayUrl });
  await desk.handlers['wallet.import']({ privateKey: stack.buyerKeys[0]!, passphrase: PASSPHRASE });
});
afterAll(async () => {
  await desk?.close();
  gateway?.closeAllConnections();
  await new Promise<void>((resolve) => (gateway ? gateway.close(() => resolve()) : resolve()));
  await stack?.stop();
  data?.remove();
});

describe('a refused payment settled later', () => {
  it('stays in doubt until its window closes, then shows as paid with its receipt', async () => {
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const before = await balanceOf(stack, payer);
    const handle = (await desk.handlers['shelf.list']({})).entries[0]!.username;
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    // Refused and unused on chain now, but still settleable: not failed.
    if (outcome.status !== 'in_doubt') throw new Error(`expected in doubt, got ${outcome.status}`);
    expect(outcome.purchase.movedUnits).toBeNull();
    // Nor can the same reports be paid for again meanwhile.
    const again = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
    expect(
      (
        await failure(
          desk.handlers['purchase.start']({ quoteId: again.quoteId, confirmedAmount: again.amount }),
        )
      ).code,
    ).toBe('purchase_in_doubt');

    // The gateway settles the payment it kept.
    const kept = held[0]!;
    const settled = await fetch(`${stack.baseUrl}${kept.url}`, {
      headers: { 'X-402-Payment': kept.payment },
    });
    expect(settled.status).toBe(200);
    const lost = before - (await balanceOf(stack, payer));
    expect(lost).toBe(BigInt(quote.amount));

    const view = await desk.handlers['purchases.reconcile']({});
    const purchase = view.purchases.find((p) => p.id === outcome.purchase.id)!;
    expect(purchase).toMatchObject({ state: 'in_doubt', waitingFor: { kind: 'redelivery' } });
    expect(purchase.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(BigInt(purchase.movedUnits!)).toBe(lost);
  });
});
