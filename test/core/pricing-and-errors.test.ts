/**
 * Against the reference service and anvil: every spec error arrives as a typed DeskError, and a fresh quote
 * is reused so that a purchase costs one request (a stale one costs a new challenge first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { ServiceClient, resourcePath } from '../../src/core/client/service-client';
import { quoteFromChallenge, type Quote } from '../../src/core/payments/quote';
import type { PaymentPayload } from '@x402/core/types';
import { newAuthorization, paymentPayload, typedData } from '../../src/core/payments/authorization';
import { deskWithWallet, failure, tempDir } from './helpers';

let stack: Stack;
let client: ServiceClient;
let handle: string;
let ids: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 8, maxReportsPerHandle: 8 },
    buyerCount: 2,
  });
  client = new ServiceClient(stack.baseUrl, { attempts: 1 });
  handle = (await client.list()).entries[0]!.username;
  ids = (await client.menu(handle)).reports.map((r) => r.id);
});
afterAll(async () => {
  await stack?.stop();
});

async function quoteFor(path: string): Promise<Quote> {
  return quoteFromChallenge(await client.challenge(path), {
    demo: true,
    demoAsset: stack.asset,
    resourcePath: path,
    expectedReportCount: null,
  });
}

/** A payment for the quote signed by buyer `index`, optionally claiming another value than the quote's. */
async function signedPayment(quote: Quote, path: string, index = 0, value?: bigint): Promise<PaymentPayload> {
  const account = privateKeyToAccount(stack.buyerKeys[index]!);
  const authorization = {
    ...newAuthorization(quote, account.address, Date.now()),
    ...(value ? { value } : {}),
  };
  const signature = await account.signTypedData(typedData(quote, authorization));
  return paymentPayload(quote, authorization, signature, `${stack.baseUrl}${path}`);
}

describe('spec errors (section 7) as typed errors', () => {
  it('400 range_requires_from_to_or_ids and 404 no_matching_reports', async () => {
    expect(
      await failure(client.challenge(`/api/intel/reports?username=${handle}&select=range`)),
    ).toMatchObject({ code: 'range_requires_from_to_or_ids', kind: 'service', details: { status: 400 } });
    const none = resourcePath(handle, { kind: 'ids', ids: ['rpt_nothing_like_this'] });
    expect(await failure(client.challenge(none))).toMatchObject({
      code: 'no_matching_reports',
      details: { status: 404 },
    });
  });

  it('402 insufficient_payment with the required and paid amounts, and 402 for a foreign signature', async () => {
    const path = resourcePath(handle, { kind: 'ids', ids: ids.slice(0, 2) });
    const quote = await quoteFor(path);
    const short = await failure(client.pay(path, await signedPayment(quote, path, 0, 10_000n)));
    expect(short).toMatchObject({
      code: 'insufficient_payment',
      details: { status: 402, requiredUsd: 0.02, paidUsd: 0.01 },
    });
    expect(short.message).toMatch(/\$0\.02 required, \$0\.01 paid/);

    const payment = await signedPayment(quote, path);
    const stranger = privateKeyToAccount(stack.buyerKeys[1]!);
    const signature = await stranger.signMessage({ message: 'not a transfer authorization' });
    const forged = { ...payment, payload: { ...payment.payload, signature } };
    expect(await failure(client.pay(path, forged))).toMatchObject({
      code: 'invalid_signature',
      details: { status: 402 },
    });
  });

  it('409 payment_already_used when a settled payment is sent again', async () => {
    const path = resourcePath(handle, { kind: 'ids', ids: ids.slice(2, 3) });
    const payment = await signedPayment(await quoteFor(path), path);
    const paid = await client.pay(path, payment);
    expect(paid.body.reportCount).toBe(1);
    expect(await failure(client.pay(path, payment))).toMatchObject({
      code: 'payment_already_used',
      details: { status: 409 },
    });
  });
});

describe('quote reuse', () => {
  let desk: DeskCore;
  let clock = Date.now();
  let data: ReturnType<typeof tempDir>;
  const requests: { url: string; paid: boolean }[] = [];
  const countingFetch: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    const url = input instanceof Request ? input.url : String(input);
    requests.push({ url, paid: headers.has('x-402-payment') || headers.has('x-payment') });
    return fetch(input, init);
  };

  beforeAll(async () => {
    data = tempDir('desk-reuse-');
    ({ desk } = await deskWithWallet(stack, data.dir, 1, { fetch: countingFetch, now: () => clock }));
  });
  afterAll(async () => {
    await desk?.close();
    data?.remove();
  });

  async function buyCounting(
    selection: Parameters<DeskCore['handlers']['quote.get']>[0]['selection'],
    age: number,
  ) {
    // The quote is dated `age` ms ago; the payment is made on the service's clock.
    clock = Date.now() - age;
    const quote = await desk.handlers['quote.get']({ handle, selection });
    clock = Date.now();
    requests.length = 0;
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(outcome).toMatchObject({ status: 'completed' });
    return requests.map((r) =>
      r.paid ? 'paid' : new URL(r.url).searchParams.has('select') ? 'challenge' : 'menu',
    );
  }

  it('a quote younger than 60 s is paid in one request; an older one is priced again first', async () => {
    expect(await buyCounting({ kind: 'ids', ids: ids.slice(3, 4) }, 0)).toEqual(['paid']);
    expect(await buyCounting({ kind: 'ids', ids: ids.slice(4, 5) }, 59_000)).toEqual(['paid']);
    expect(await buyCounting({ kind: 'ids', ids: ids.slice(5, 6) }, 61_000)).toEqual(['challenge', 'paid']);
    const other = (await client.list()).entries[1]!.username;
    const quote = await desk.handlers['quote.get']({ handle: other, selection: { kind: 'all' } });
    requests.length = 0;
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(outcome.status).toBe('completed');
    expect(requests.map((r) => r.paid)).toEqual([true]);
  });
});
