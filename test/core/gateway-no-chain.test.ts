/**
 * With no chain to ask, a gateway's answer is never taken for the service's refusal. The gateway lets the
 * service settle, then answers the desk with its own 502, 503, 504 or 429, or a 402 or 404 that carries no x402
 * answer. The desk has no chain RPC (the demo chain has no public endpoint), so once its clock is past
 * validBefore plus the margin it would believe a refusal; money moved each time, so the purchase must stay in
 * doubt, never "failed". Only a 402 with a payment-required answer is a refusal (after-send.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { DESK_CLOCK_EXPIRY_MARGIN_MS } from '../../src/core/payments/chain-state';
import { balanceOf, deskWithWallet, firstHandle, tempDir } from './helpers';
import { startHostileProxy, withoutPaymentIdentifier, type HostileProxy } from './hostile-proxy';

let stack: Stack;
let proxy: HostileProxy;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let payer: `0x${string}`;
let handle: string;
let ids: string[];
/** Moved forward to put the desk's clock past an authorization's close. */
let clockAhead = 0;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 8, maxReportsPerHandle: 8 },
    buyerCount: 1,
  });
  proxy = await startHostileProxy(stack.baseUrl);
  // No kept answer to ask for again: only the chain, or the clock, could decide.
  proxy.mutate = withoutPaymentIdentifier;
  data = tempDir('desk-gateway-no-chain-');
  ({ desk, address: payer } = await deskWithWallet({ ...stack, baseUrl: proxy.url }, data.dir, 0, {
    rpcUrl: undefined,
    now: () => Date.now() + clockAhead,
  }));
  ({ handle, ids } = await firstHandle(stack));
});
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await stack?.stop();
  data?.remove();
});

const gateways: { name: string; status: number; body: string }[] = [
  { name: '502 Bad Gateway', status: 502, body: '<h1>502 Bad Gateway</h1>' },
  { name: '503 Service Unavailable', status: 503, body: '<h1>503</h1>' },
  { name: '504 Gateway Timeout', status: 504, body: '<h1>504</h1>' },
  { name: '429 Too Many Requests', status: 429, body: '{"error":"rate_limited"}' },
  { name: "a gateway's own 402 page", status: 402, body: '<h1>402 Payment Required</h1>' },
  { name: "a gateway's own 404 page", status: 404, body: '<h1>404 Not Found</h1>' },
];

describe('the service settled, a gateway answered, and no chain can be asked', () => {
  gateways.forEach(({ name, status, body }, index) => {
    it(`${name}: still in doubt past validBefore and the margin, never failed`, async () => {
      const selection = { kind: 'ids' as const, ids: [ids[index]!] };
      const quote = await desk.handlers['quote.get']({ handle, selection });
      const before = await balanceOf(stack, payer);
      proxy.paidAnswer = { status, body };
      let outcome;
      try {
        outcome = await desk.handlers['purchase.start']({
          quoteId: quote.quoteId,
          confirmedAmount: quote.amount,
        });
      } finally {
        proxy.paidAnswer = null;
      }
      // The money moved on chain.
      expect(await balanceOf(stack, payer)).toBe(before - BigInt(quote.amount));
      expect(outcome.status).toBe('in_doubt');
      if (outcome.status !== 'in_doubt') return;
      expect(outcome.purchase.waitingFor).not.toHaveProperty('refusal');

      const row = (await desk.handlers['purchases.list']({})).purchases.find(
        (p) => p.id === outcome.purchase.id,
      )!;
      const closes = Date.parse(row.waitingFor?.kind === 'expiry' ? row.waitingFor.until : '');
      expect(closes).toBeGreaterThan(Date.now());
      clockAhead = closes - Date.now() + DESK_CLOCK_EXPIRY_MARGIN_MS + 60_000;
      try {
        const after = (await desk.handlers['purchases.reconcile']({})).purchases.find(
          (p) => p.id === outcome.purchase.id,
        )!;
        expect(after.state).toBe('in_doubt');
        // Past its close, waiting for a chain to say whether it settled.
        expect(after.waitingFor?.kind).toBe('chain_access');
      } finally {
        clockAhead = 0;
      }
    });
  });
});
