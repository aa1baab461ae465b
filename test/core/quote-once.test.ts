/**
 * A held quote is spent by the purchase that uses it (safety rule 6): a second start with the same quote, two
 * starts at once (a double click, two windows), or one external signature submitted twice sign and pay at
 * most once. Checked on the chain: the buyer's balance moves by exactly one quoted amount.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore, PurchaseStep } from '../../src/core';
import type { ExternalSignRequest } from '../../src/shared/rpc';
import {
  balanceOf,
  deskFor,
  deskWithWallet,
  failure,
  firstHandle,
  onPurchaseSteps,
  tempDir,
} from './helpers';

let stack: Stack;
let handle: string;
let ids: string[];
const cleanups: (() => Promise<void> | void)[] = [];
const signings: string[] = [];
const followStep = (id: string, step: PurchaseStep) => {
  if (step === 'signing' || step === 'signed') signings.push(`${id}:${step}`);
};

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 10, maxReportsPerHandle: 10 },
    buyerCount: 2,
  });
  ({ handle, ids } = await firstHandle(stack));
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await stack?.stop();
});

async function keystoreDesk(): Promise<{ desk: DeskCore; payer: `0x${string}` }> {
  const data = tempDir('desk-quote-once-');
  const { desk, address } = await deskWithWallet(stack, data.dir, 0, {
    onEvent: onPurchaseSteps(followStep),
  });
  cleanups.push(data.remove, () => desk.close());
  return { desk, payer: address };
}

describe('a quote pays once', () => {
  it('a second purchase.start with the same quote is refused as spent', async () => {
    const { desk, payer } = await keystoreDesk();
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [ids[0]!] } });
    const before = await balanceOf(stack, payer);
    const first = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(first.status).toBe('completed');
    const signed = signings.length;
    expect(
      await failure(
        desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      ),
    ).toMatchObject({ code: 'quote_spent', kind: 'refused' });
    expect(signings.length).toBe(signed);
    expect(await balanceOf(stack, payer)).toBe(before - BigInt(quote.amount));
  });

  it('two starts of one quote at once (a double click) sign and pay once', async () => {
    const { desk, payer } = await keystoreDesk();
    const quote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(1, 3) },
    });
    const before = await balanceOf(stack, payer);
    const signed = signings.length;
    const start = () =>
      desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount });
    const results = await Promise.allSettled([start(), start()]);
    const completed = results.filter((r) => r.status === 'fulfilled' && r.value.status === 'completed');
    const refusedCodes = results.flatMap((r) =>
      r.status === 'rejected' ? [(r.reason as { code: string }).code] : [],
    );
    expect(completed).toHaveLength(1);
    expect(refusedCodes).toEqual(['quote_in_use']);
    expect(signings.length - signed).toBe(2); // one signing, one signed
    expect(await balanceOf(stack, payer)).toBe(before - BigInt(quote.amount));
  });

  it('two windows with their own quotes for the same reports, started at once, pay once', async () => {
    const { desk, payer } = await keystoreDesk();
    const selection = { kind: 'ids' as const, ids: ids.slice(3, 5) };
    const [a, b] = await Promise.all([
      desk.handlers['quote.get']({ handle, selection }),
      desk.handlers['quote.get']({ handle, selection }),
    ]);
    const before = await balanceOf(stack, payer);
    const results = await Promise.allSettled(
      [a!, b!].map((quote) =>
        desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      ),
    );
    const outcomes = results.map((r) =>
      r.status === 'fulfilled' ? r.value.status : (r.reason as { code: string }).code,
    );
    expect(outcomes.sort()).toEqual(['completed', 'purchase_in_progress']);
    expect(await balanceOf(stack, payer)).toBe(before - BigInt(a!.amount));
  });

  it('one external signature submitted twice, one after the other and at once, pays once', async () => {
    const account = privateKeyToAccount(stack.buyerKeys[1]!);
    const data = tempDir('desk-quote-once-external-');
    const desk = await deskFor(stack, data.dir);
    cleanups.push(data.remove, () => desk.close());
    await desk.handlers['wallet.useExternal']({ address: account.address });

    for (const [index, concurrent] of [false, true].entries()) {
      const quote = await desk.handlers['quote.get']({
        handle,
        selection: { kind: 'ids', ids: [ids[5 + index]!] },
      });
      const started = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      if (started.status !== 'needs_signature') throw new Error('expected a signature request');
      // While its signature is asked for, the quote is in use: a second start cannot ask for another.
      expect(
        await failure(
          desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
        ),
      ).toMatchObject({ code: 'quote_in_use' });
      const { typedData, purchaseId } = started.request;
      const signature = await account.signTypedData({
        ...typedData,
        domain: {
          ...typedData.domain,
          verifyingContract: typedData.domain.verifyingContract as `0x${string}`,
        },
      });
      const before = await balanceOf(stack, account.address);
      const submit = () => desk.handlers['purchase.submitSignature']({ purchaseId, signature });
      const results = concurrent
        ? await Promise.allSettled([submit(), submit()])
        : [await Promise.allSettled([submit()]), await Promise.allSettled([submit()])].flat();
      const outcomes = results.map((r) =>
        r.status === 'fulfilled' ? r.value.status : (r.reason as { code: string }).code,
      );
      expect(outcomes.sort()).toEqual(['completed', 'signature_already_submitted']);
      expect(await balanceOf(stack, account.address)).toBe(before - BigInt(quote.amount));
      // Paid, the quote is spent.
      expect(
        await failure(
          desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
        ),
      ).toMatchObject({ code: 'quote_spent' });
    }
  });
  it('a signature request left unanswered is replaced by a new one for the same reports, and only that one pays', async () => {
    const account = privateKeyToAccount(stack.buyerKeys[1]!);
    const data = tempDir('desk-quote-once-abandoned-');
    const desk = await deskFor(stack, data.dir);
    cleanups.push(data.remove, () => desk.close());
    await desk.handlers['wallet.useExternal']({ address: account.address });
    const selection = { kind: 'ids' as const, ids: [ids[7]!] };
    const requests: ExternalSignRequest[] = [];
    for (let i = 0; i < 2; i++) {
      const quote = await desk.handlers['quote.get']({ handle, selection });
      const started = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      if (started.status !== 'needs_signature') throw new Error('expected a signature request');
      requests.push(started.request);
    }
    const before = await balanceOf(stack, account.address);
    const sign = (request: ExternalSignRequest) =>
      account.signTypedData({
        ...request.typedData,
        domain: {
          ...request.typedData.domain,
          verifyingContract: request.typedData.domain.verifyingContract as `0x${string}`,
        },
      });
    const [first, second] = requests as [ExternalSignRequest, ExternalSignRequest];
    expect(
      await failure(
        desk.handlers['purchase.submitSignature']({
          purchaseId: first.purchaseId,
          signature: await sign(first),
        }),
      ),
    ).toMatchObject({ code: 'purchase_unknown' });
    const paid = await desk.handlers['purchase.submitSignature']({
      purchaseId: second.purchaseId,
      signature: await sign(second),
    });
    expect(paid.status).toBe('completed');
    expect(await balanceOf(stack, account.address)).toBe(before - 10_000n);
  });
});
