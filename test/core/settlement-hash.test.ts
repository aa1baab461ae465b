/**
 * The settlement a paid answer names (PAYMENT-RESPONSE / X-Payment-Response) is kept as the purchase's
 * transaction only when it is a transaction hash, 0x and 64 hex digits: it is shown in receipts and becomes an
 * explorer link. Anything else is not kept, the purchase still completes with its reports, and the receipt
 * says why there is no transaction, while verifying on chain still finds the settlement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { receiptFields } from '../../src/shared/receipt';
import { deskWithWallet, firstHandle, ledgerRows, tempDir } from './helpers';
import { startHostileProxy, type HostileProxy } from './hostile-proxy';

let stack: Stack;
let proxy: HostileProxy;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let handle: string;
let ids: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    buyerCount: 1,
  });
  proxy = await startHostileProxy(stack.baseUrl);
  data = tempDir('desk-settlement-hash-');
  ({ desk } = await deskWithWallet({ ...stack, baseUrl: proxy.url }, data.dir));
  ({ handle, ids } = await firstHandle(stack));
});
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await stack?.stop();
  data?.remove();
});

async function buy(index: number) {
  const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [ids[index]!] } });
  return desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount });
}

describe('the transaction a paid answer names', () => {
  it('is kept when it is a transaction hash', async () => {
    const outcome = await buy(0);
    if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
    expect(outcome.purchase.txHash).toMatch(/^0x[0-9a-f]{64}$/i);
  });

  const named = [
    ['a link', 'javascript:alert(1)'],
    ['a hash one byte short', `0x${'ab'.repeat(31)}`],
    ['a hash with a line after it', `0x${'ab'.repeat(32)}\nVerified by the service`],
  ] as const;
  named.forEach(([what, transaction], index) => {
    it(`is not kept when it is ${what}; the purchase completes and its receipt says why`, async () => {
      proxy.rewriteSettlement = (settlement) => ({ ...settlement, transaction });
      let outcome;
      try {
        outcome = await buy(index + 1);
      } finally {
        proxy.rewriteSettlement = null;
      }
      if (outcome.status !== 'completed') throw new Error(`expected completed, got ${outcome.status}`);
      expect(outcome.purchase.txHash).toBeNull();
      expect(ledgerRows(data.dir).find((row) => row.id === outcome.purchase.id)!.tx_hash).toBeNull();
      const receipt = await desk.handlers['receipt.get']({ purchaseId: outcome.purchase.id, verify: true });
      expect(receipt.txHash).toBeNull();
      expect(receipt.explorerUrl).toBeNull();
      expect(receiptFields(receipt).find((field) => field.label === 'Transaction')!.value).toMatch(
        /^none recorded: the service named no transaction hash/,
      );
      // The chain still has the settlement.
      expect(receipt.verification).toMatchObject({ status: 'verified' });
      if (receipt.verification?.status === 'verified')
        expect(receipt.verification.transaction).toMatch(/^0x[0-9a-f]{64}$/i);
    });
  });
});
