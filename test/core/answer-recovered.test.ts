/**
 * A lost answer recovered with x402's payment-identifier (decision 0022). A gateway lets the service settle a
 * payment and loses its answer; the next check sends the identical payment again, gets the answer the service
 * kept, and completes the purchase through the same delivery check, while the chain shows one payment. Where
 * the service does not offer the extension, nothing is sent again and the purchase stays in doubt as before.
 */
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { balanceOf, deskWithWallet, firstHandle, tempDir } from './helpers';
import { startHostileProxy, withoutPaymentIdentifier, type HostileProxy } from './hostile-proxy';

let stack: Stack;
let proxy: HostileProxy;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let payer: `0x${string}`;
let handle: string;
let ids: string[];
/** Moves the desk's clock (not the chain's or the service's) ahead, to pass an authorization's validBefore. */
let clockAhead = 0;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 10, maxReportsPerHandle: 10 },
    buyerCount: 1,
    mining: 'auto',
  });
  proxy = await startHostileProxy(stack.baseUrl);
  data = tempDir('desk-answer-recovered-');
  ({ desk, address: payer } = await deskWithWallet({ ...stack, baseUrl: proxy.url }, data.dir, 0, {
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

interface SentPayment {
  payload: { signature: string; authorization: { nonce: `0x${string}` } };
  extensions?: Record<string, { info: { id?: string } }>;
}

function decoded(header: string): SentPayment {
  return JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as SentPayment;
}

async function authorizationUsed(nonce: `0x${string}`): Promise<boolean> {
  return (await stack.chain.clients.publicClient.readContract({
    address: stack.asset,
    abi: stack.chain.token.contract.abi,
    functionName: 'authorizationState',
    args: [payer, nonce],
  })) as boolean;
}

/** The ledger's kept payments for one purchase, read from the file as any program could. */
function keptPayments(purchaseId: string): { purchase_id: string; payment_id: string }[] {
  const db = new Database(path.join(data.dir, 'desk.db'), { readonly: true });
  try {
    return db
      .prepare('SELECT purchase_id, payment_id FROM kept_payments WHERE purchase_id = ?')
      .all(purchaseId) as { purchase_id: string; payment_id: string }[];
  } finally {
    db.close();
  }
}

/** Every byte of the ledger on disk, the write-ahead log included. */
function ledgerBytes(): string {
  return ['desk.db', 'desk.db-wal']
    .map((name) => path.join(data.dir, name))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');
}

/** Buys `selection` through a gateway that loses the paid answer after the service settled it. */
async function buyAndLoseTheAnswer(selection: { kind: 'ids'; ids: string[] }) {
  const quote = await desk.handlers['quote.get']({ handle, selection });
  const before = await balanceOf(stack, payer);
  proxy.paidAnswer = { status: 502, body: '<h1>502 Bad Gateway</h1>' };
  try {
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    if (outcome.status !== 'in_doubt') throw new Error(`expected in doubt, got ${outcome.status}`);
    const sent = proxy.paymentsSeen.at(-1)!;
    expect(await balanceOf(stack, payer)).toBe(before - BigInt(quote.amount));
    expect(await authorizationUsed(decoded(sent).payload.authorization.nonce)).toBe(true);
    return { quote, before, outcome, sent };
  } finally {
    proxy.paidAnswer = null;
  }
}

describe('a lost answer from a service that offers payment-identifier', () => {
  it('is recovered by the next check with the identical payment, and the chain shows one payment', async () => {
    const selection = { kind: 'ids' as const, ids: ids.slice(0, 2) };
    const { quote, before, outcome, sent } = await buyAndLoseTheAnswer(selection);
    const purchaseId = outcome.purchase.id;
    // The payment carried the ledger row's id, and the ledger keeps it sealed: never the signature in clear.
    const payment = decoded(sent);
    expect(payment.extensions?.['payment-identifier']?.info.id).toBe(purchaseId);
    expect(keptPayments(purchaseId).map((row) => [row.purchase_id, row.payment_id])).toEqual([
      [purchaseId, purchaseId],
    ]);
    expect(ledgerBytes()).not.toContain(payment.payload.signature.slice(2));
    expect(ledgerBytes()).not.toContain(payment.payload.signature.slice(2).toUpperCase());
    const paymentsBefore = proxy.paymentsSeen.length;

    const view = await desk.handlers['purchases.reconcile']({});
    const recovered = view.purchases.find((p) => p.id === purchaseId)!;
    expect(recovered).toMatchObject({ state: 'completed', reportIds: expect.any(Array) });
    expect([...recovered.reportIds].sort()).toEqual([...selection.ids].sort());
    expect(recovered.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // Sent again once, byte for byte the first payment: no new signature, no new authorization.
    expect(proxy.paymentsSeen.slice(paymentsBefore)).toEqual([sent]);
    // The reports are in the library.
    const library = await desk.handlers['library.list']({ handle });
    expect(library.items.map((item) => item.id).sort()).toEqual([...selection.ids].sort());
    // One payment on chain: the balance moved by the price once, and the authorization is used.
    expect(await balanceOf(stack, payer)).toBe(before - BigInt(quote.amount));
    expect(await authorizationUsed(payment.payload.authorization.nonce)).toBe(true);
    // Delivered: the kept payment is gone, and a later check sends nothing.
    expect(keptPayments(purchaseId)).toEqual([]);
    await desk.handlers['purchases.reconcile']({});
    expect(proxy.paymentsSeen.length).toBe(paymentsBefore + 1);
  });

  it('asks a service that does not answer once per check, not once per kept payment', async () => {
    const lost = [
      await buyAndLoseTheAnswer({ kind: 'ids', ids: [ids[4]!] }),
      await buyAndLoseTheAnswer({ kind: 'ids', ids: [ids[5]!] }),
    ];
    let asked = 0;
    // The gateway takes the request and never answers: the desk gives up at its deadline.
    proxy.beforePaidForward = () => {
      asked++;
      return new Promise<void>(() => {});
    };
    try {
      const view = await desk.handlers['purchases.reconcile']({});
      expect(asked).toBe(1);
      for (const { outcome } of lost)
        expect(view.purchases.find((p) => p.id === outcome.purchase.id)?.state).toBe('in_doubt');
    } finally {
      proxy.beforePaidForward = null;
    }
    // Answering again, the service gives both answers back at the next check.
    const view = await desk.handlers['purchases.reconcile']({});
    for (const { outcome } of lost)
      expect(view.purchases.find((p) => p.id === outcome.purchase.id)?.state).toBe('completed');
  });

  it('reaches the desk when a gateway resends the paid request itself: one payment', async () => {
    const selection = { kind: 'ids' as const, ids: ids.slice(6, 8) };
    const quote = await desk.handlers['quote.get']({ handle, selection });
    const before = await balanceOf(stack, payer);
    proxy.retryPaid = true;
    let outcome;
    try {
      outcome = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
    } finally {
      proxy.retryPaid = false;
    }
    // The service answered the gateway's copy of the payment with the answer it kept, not with a 409.
    if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
    expect(await balanceOf(stack, payer)).toBe(before - BigInt(quote.amount));
    expect(keptPayments(outcome.purchase.id)).toEqual([]);
  });

  it('is not sent again once its authorization closed: the kept payment is deleted', async () => {
    const selection = { kind: 'ids' as const, ids: ids.slice(2, 4) };
    const { outcome } = await buyAndLoseTheAnswer(selection);
    expect(keptPayments(outcome.purchase.id)).toHaveLength(1);
    const paymentsBefore = proxy.paymentsSeen.length;
    clockAhead = 10 * 60_000;
    try {
      const view = await desk.handlers['purchases.reconcile']({});
      expect(view.purchases.find((p) => p.id === outcome.purchase.id)).toMatchObject({
        state: 'in_doubt',
        waitingFor: { kind: 'redelivery' },
      });
    } finally {
      clockAhead = 0;
    }
    expect(proxy.paymentsSeen.length).toBe(paymentsBefore);
    expect(keptPayments(outcome.purchase.id)).toEqual([]);
  });
});

describe('a lost answer from a service that does not offer payment-identifier', () => {
  it('is never sent again: no id, nothing kept, and the purchase stays in doubt as before', async () => {
    proxy.mutate = withoutPaymentIdentifier;
    try {
      const selection = { kind: 'ids' as const, ids: ids.slice(8, 10) };
      const { quote, before, outcome, sent } = await buyAndLoseTheAnswer(selection);
      expect(decoded(sent).extensions).toBeUndefined();
      expect(keptPayments(outcome.purchase.id)).toEqual([]);
      const paymentsBefore = proxy.paymentsSeen.length;

      const view = await desk.handlers['purchases.reconcile']({});
      expect(view.purchases.find((p) => p.id === outcome.purchase.id)).toMatchObject({
        state: 'in_doubt',
        waitingFor: { kind: 'redelivery' },
      });
      expect(proxy.paymentsSeen.length).toBe(paymentsBefore);
      expect(await balanceOf(stack, payer)).toBe(before - BigInt(quote.amount));
    } finally {
      proxy.mutate = null;
    }
  });
});
