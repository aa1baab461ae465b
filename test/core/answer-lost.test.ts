/**
 * A gateway in front of the service lets the service settle a payment, then answers the desk with its own
 * 502, 504 or 429, or retries the paid request itself and passes on the service's 409. Money moved each time:
 * the purchase must be in doubt (never "failed"), count toward the daily cap, be reconciled on chain, and
 * block a second payment for the same reports until it is resolved. The challenge here does not offer x402's
 * payment-identifier, so nothing can ask for the answer again (answer-recovered.test.ts covers a service that
 * offers it). The desk's clock keeps one local day for the whole file (clock.ts), so "spent today" means the
 * same day before and after each purchase.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import {
  balanceOf,
  deskWithWallet,
  failure,
  firstHandle,
  onPurchaseSteps,
  PASSPHRASE,
  tempDir,
} from './helpers';
import { startHostileProxy, withoutPaymentIdentifier, type HostileProxy } from './hostile-proxy';
import { sameDayClock } from './clock';

let stack: Stack;
let proxy: HostileProxy;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let payer: `0x${string}`;
let handle: string;
let ids: string[];
const signings: string[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 12, maxReportsPerHandle: 12 },
    buyerCount: 1,
  });
  proxy = await startHostileProxy(stack.baseUrl);
  // A service that keeps no answers: without the extension, the desk behaves as before it (decision 0022).
  proxy.mutate = withoutPaymentIdentifier;
  data = tempDir('desk-answer-lost-');
  ({ desk, address: payer } = await deskWithWallet(
    {
      ...stack,
      baseUrl: proxy.url,
    },
    data.dir,
    0,
    {
      now: sameDayClock(),
      onEvent: onPurchaseSteps((id, step) => {
        if (step === 'signing') signings.push(id);
      }),
    },
  ));
  await desk.handlers['settings.update']({ perPurchaseCapUnits: '1000000', dailyCapUnits: '5000000' });
  ({ handle, ids } = await firstHandle(stack));
});
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await stack?.stop();
  data?.remove();
});

function sentNonce(): `0x${string}` {
  const sent = JSON.parse(Buffer.from(proxy.paymentsSeen.at(-1)!, 'base64').toString('utf8')) as {
    payload: { authorization: { nonce: `0x${string}` } };
  };
  return sent.payload.authorization.nonce;
}

async function authorizationUsed(nonce: `0x${string}`): Promise<boolean> {
  return (await stack.chain.clients.publicClient.readContract({
    address: stack.asset,
    abi: stack.chain.token.contract.abi,
    functionName: 'authorizationState',
    args: [payer, nonce],
  })) as boolean;
}

const gateways: { name: string; arrange: () => void }[] = [
  { name: '502 Bad Gateway', arrange: () => (proxy.paidAnswer = { status: 502, body: '<h1>502</h1>' }) },
  { name: '504 Gateway Timeout', arrange: () => (proxy.paidAnswer = { status: 504, body: '<h1>504</h1>' }) },
  {
    name: '429 Too Many Requests',
    arrange: () => (proxy.paidAnswer = { status: 429, body: '{"error":"rate_limited"}' }),
  },
  { name: '409 after the gateway resent it', arrange: () => (proxy.retryPaid = true) },
];

describe('the service settled, then the answer that reached the desk was not the reports', () => {
  gateways.forEach(({ name, arrange }, index) => {
    it(`${name}: in doubt, counted, reconciled on chain, and no second payment for the same reports`, async () => {
      const selection = { kind: 'ids' as const, ids: ids.slice(index * 2, index * 2 + 2) };
      const quote = await desk.handlers['quote.get']({ handle, selection });
      const before = await balanceOf(stack, payer);
      const spentBefore = BigInt((await desk.handlers['purchases.list']({})).spentTodayUnits);
      arrange();
      let outcome;
      try {
        outcome = await desk.handlers['purchase.start']({
          quoteId: quote.quoteId,
          confirmedAmount: quote.amount,
        });
      } finally {
        proxy.paidAnswer = null;
        proxy.retryPaid = false;
      }

      // Exactly one quoted amount moved, and the chain has used this payment's nonce.
      expect(await balanceOf(stack, payer)).toBe(before - BigInt(quote.amount));
      expect(await authorizationUsed(sentNonce())).toBe(true);
      expect(outcome.status).toBe('in_doubt');
      if (outcome.status !== 'in_doubt') return;
      expect(outcome.message).toMatch(/may have settled/);
      const { purchases, spentTodayUnits } = await desk.handlers['purchases.list']({});
      const row = purchases.find((p) => p.id === outcome.purchase.id)!;
      expect(row.state).toBe('in_doubt');
      // What moved is not known yet: the view says so rather than showing the price as charged.
      expect(row.movedUnits).toBeNull();
      expect(BigInt(spentTodayUnits)).toBe(spentBefore + BigInt(quote.amount));
      // The daily cap counts it: with the cap just above what is spent, one more report goes over. The cap
      // is put back whatever happens, so a failure here is not also the next gateway's.
      await desk.handlers['settings.update']({ dailyCapUnits: String(BigInt(spentTodayUnits) + 5000n) });
      try {
        const next = await desk.handlers['quote.get']({
          handle,
          selection: { kind: 'ids', ids: [ids[11]!] },
        });
        expect(next.overDailyCap).toBe(true);
      } finally {
        await desk.handlers['settings.update']({ dailyCapUnits: '5000000', passphrase: PASSPHRASE });
      }

      // Buying the same reports again is refused before anything is signed or sent.
      const paymentsBefore = proxy.paymentsSeen.length;
      const signingsBefore = signings.length;
      const again = await desk.handlers['quote.get']({ handle, selection });
      const refusal = await failure(
        desk.handlers['purchase.start']({ quoteId: again.quoteId, confirmedAmount: again.amount }),
      );
      expect(refusal).toMatchObject({ code: 'purchase_in_doubt', kind: 'refused' });
      expect(refusal.message).toContain(outcome.purchase.id);
      // One report in common is enough to refuse.
      const overlapping = await desk.handlers['quote.get']({
        handle,
        selection: { kind: 'ids', ids: [selection.ids[1]!, ids[11]!] },
      });
      expect(
        await failure(
          desk.handlers['purchase.start']({
            quoteId: overlapping.quoteId,
            confirmedAmount: overlapping.amount,
            acceptOverCap: true,
            passphrase: PASSPHRASE,
          }),
        ),
      ).toMatchObject({ code: 'purchase_in_doubt' });
      expect(proxy.paymentsSeen.length).toBe(paymentsBefore);
      expect(signings.length).toBe(signingsBefore);
      expect(await balanceOf(stack, payer)).toBe(before - BigInt(quote.amount));

      // Reconciled on chain: paid, not delivered, with the settlement's transaction.
      const reconciled = (await desk.handlers['purchases.reconcile']({})).purchases.find(
        (p) => p.id === outcome.purchase.id,
      )!;
      expect(reconciled).toMatchObject({
        state: 'in_doubt',
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        waitingFor: { kind: 'redelivery' },
      });
      expect(reconciled.error).toMatch(/Paid on chain/);
      expect(reconciled.movedUnits).toBe(quote.amount);
    });
  });
});
