/**
 * A refusal the chain contradicts is not a failure, even once the authorization's window has closed. A
 * gateway passes the paid request on, the service settles it, the chain's clock then moves past validBefore
 * (anvil's own time controls), and the gateway answers with a 402 refusal. The desk asks the chain: the
 * window is closed, but the authorization is used, so the purchase is held in doubt and reconciliation reads
 * it as paid, not delivered, with its receipt, on every later check. Never failed: money moved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStack, type Stack } from '../../src/service/stack';
import type { PurchaseView } from '../../src/shared/rpc';
import { balanceOf, deskFor, deskWithWallet, ledgerRows, tempDir } from './helpers';
import { anvilCall, latestBlockTime } from '../service/chain-time';
import { withoutPaymentIdentifier } from './hostile-proxy';

const PAYMENT_HEADERS = ['payment-signature', 'x-402-payment', 'x-payment'] as const;

let stack: Stack;
let gateway: Server;
let gatewayUrl: string;
let data: ReturnType<typeof tempDir>;
const paymentsSeen: string[] = [];

function paymentOf(headers: IncomingHttpHeaders): string | null {
  for (const name of PAYMENT_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') return value;
  }
  return null;
}

beforeAll(async () => {
  // Its own chain: the test moves that chain's time forward for good.
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
  });
  // Passes everything on; a paid request that the service settled is answered with a refusal, after the
  // chain's time has passed the authorization's validBefore (at most 300 s after signing).
  gateway = createServer((req, res) => {
    const payment = paymentOf(req.headers);
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const name of PAYMENT_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    fetch(`${stack.baseUrl}${req.url ?? '/'}`, { headers })
      .then(async (upstream) => {
        const body = await upstream.text();
        if (payment !== null && upstream.status === 200) {
          paymentsSeen.push(payment);
          await anvilCall(stack, 'evm_increaseTime', [400]);
          await anvilCall(stack, 'evm_mine');
          res.writeHead(402, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ error: 'payment_rejected', message: 'the payment was rejected (busy)' }));
          return;
        }
        const out: Record<string, string> = { 'Content-Type': 'application/json' };
        if (upstream.status === 402 && payment === null) {
          // This gateway's service keeps no paid answers (no payment-identifier): only the chain can tell.
          const challenge = withoutPaymentIdentifier(JSON.parse(body) as Record<string, unknown>);
          const text = JSON.stringify(challenge);
          out['PAYMENT-REQUIRED'] = Buffer.from(text).toString('base64');
          res.writeHead(402, out);
          res.end(text);
          return;
        }
        res.writeHead(upstream.status, out);
        res.end(body);
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  data = tempDir('desk-refusal-contradicted-');
});
afterAll(async () => {
  gateway?.closeAllConnections();
  await new Promise<void>((resolve) => (gateway ? gateway.close(() => resolve()) : resolve()));
  await stack?.stop();
  data?.remove();
});

function expectPaidNotDelivered(purchase: PurchaseView | undefined, amount: string): void {
  expect(purchase).toMatchObject({
    state: 'in_doubt',
    waitingFor: { kind: 'redelivery' },
    txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    reportIds: [],
  });
  expect(purchase?.movedUnits).toBe(String(amount));
}

describe('a refusal the chain contradicts, after the window closed', () => {
  it('is held in doubt, then reads paid, not delivered; never failed', async () => {
    const { desk, address } = await deskWithWallet(stack, data.dir, 0, { serviceUrl: gatewayUrl });
    let purchaseId: string;
    let amount: string;
    const before = await balanceOf(stack, address);
    try {
      const handle = (await desk.handlers['shelf.list']({})).entries[0]!.username;
      const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
      amount = quote.amount;
      const outcome = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      expect(outcome.status).toBe('in_doubt');
      if (outcome.status !== 'in_doubt') return;
      purchaseId = outcome.purchase.id;
      expect(paymentsSeen).toHaveLength(1);
      // The refusal arrived with the chain past validBefore: the window is closed, and the money moved.
      const [row] = ledgerRows(data.dir);
      expect(await latestBlockTime(stack)).toBeGreaterThanOrEqual(row!.valid_before);
      expect(before - (await balanceOf(stack, address))).toBe(BigInt(amount));
      expect(outcome.purchase.state).toBe('in_doubt');

      const reconciled = await desk.handlers['purchases.reconcile']({});
      expectPaidNotDelivered(
        reconciled.purchases.find((p) => p.id === purchaseId),
        amount,
      );
    } finally {
      await desk.close();
    }

    // A later start reconciles again, with the chain further on: still paid, not delivered.
    await anvilCall(stack, 'evm_increaseTime', [3600]);
    await anvilCall(stack, 'evm_mine');
    const later = await deskFor(stack, data.dir, { serviceUrl: gatewayUrl });
    try {
      const { purchases } = await later.handlers['purchases.reconcile']({});
      expect(purchases).toHaveLength(1);
      expectPaidNotDelivered(purchases[0], amount);
    } finally {
      await later.close();
    }
    const rows = ledgerRows(data.dir);
    expect(rows.map((row) => [row.id, row.state, row.amount])).toEqual([[purchaseId, 'in_doubt', amount]]);
    expect(rows[0]?.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(before - (await balanceOf(stack, address))).toBe(BigInt(amount));
    expect(paymentsSeen).toHaveLength(1);
  });
});
