/**
 * Decision 0022: while a keystore is stored, raising a cap or a handle's budget, clearing a budget, and going
 * over a cap with a payment the keystore signs each need its passphrase, on a locked and on an unlocked
 * keystore; lowering needs nothing; a run's own key and a desk with no keystore need nothing more than before.
 * Checked against the reference service and its chain: a refused consent saves nothing and pays nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import type { DeskCore } from '../../src/core';
import { startStack, type Stack } from '../../src/service/stack';
import {
  balanceOf,
  deskFor,
  deskWithWallet,
  failure,
  firstHandle,
  ledgerRows,
  PASSPHRASE,
  tempDir,
} from './helpers';

let stack: Stack;
let handle: string;
let ids: string[];
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    buyerCount: 1,
    unitPriceUsd: 0.01,
  });
  ({ handle, ids } = await firstHandle(stack));
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await stack?.stop();
});

async function keystoreDesk(): Promise<{ desk: DeskCore; dir: string }> {
  const data = tempDir('desk-consent-');
  const { desk } = await deskWithWallet(stack, data.dir);
  cleanups.push(data.remove, () => desk.close());
  return { desk, dir: data.dir };
}

const caps = async (desk: DeskCore) => {
  const { perPurchaseCapUnits, dailyCapUnits } = await desk.handlers['settings.get']({});
  return { perPurchaseCapUnits, dailyCapUnits };
};

describe('raising a cap or a budget needs the keystore passphrase', () => {
  for (const locked of [false, true]) {
    it(`on ${locked ? 'a locked' : 'an unlocked'} keystore: refused without it or with a wrong one, saved with it`, async () => {
      const { desk } = await keystoreDesk();
      if (locked) await desk.handlers['wallet.lock']({});
      const before = await caps(desk);
      const missing = await failure(desk.handlers['settings.update']({ perPurchaseCapUnits: '6000000' }));
      expect(missing.code).toBe('passphrase_required');
      expect(missing.message).toMatch(
        /Raising the per-purchase cap needs the wallet's passphrase.*no setting was changed/,
      );
      const wrong = await failure(
        desk.handlers['settings.update']({ dailyCapUnits: '30000000', passphrase: 'not the passphrase' }),
      );
      expect(wrong.code).toBe('wrong_passphrase');
      // A refused raise changes nothing, not even the other fields sent with it.
      const mixed = await failure(
        desk.handlers['settings.update']({
          perPurchaseCapUnits: '1000',
          dailyCapUnits: '30000000',
          theme: 'dark',
        }),
      );
      expect(mixed.code).toBe('passphrase_required');
      expect(await caps(desk)).toEqual(before);
      expect((await desk.handlers['settings.get']({})).theme).not.toBe('dark');

      const raised = await desk.handlers['settings.update']({
        perPurchaseCapUnits: '6000000',
        dailyCapUnits: '30000000',
        passphrase: PASSPHRASE,
      });
      expect(raised).toMatchObject({ perPurchaseCapUnits: '6000000', dailyCapUnits: '30000000' });
      expect((await desk.handlers['wallet.status']({})).unlocked).toBe(!locked);

      // Lowering needs nothing, and neither does setting a budget where there was none.
      await desk.handlers['settings.update']({ perPurchaseCapUnits: '2000000', dailyCapUnits: '3000000' });
      await desk.handlers['budget.set']({ handle, monthlyUnits: '20000' });
      await desk.handlers['budget.set']({ handle, monthlyUnits: '10000' });
      for (const change of [{ monthlyUnits: '30000' }, { monthlyUnits: null }]) {
        const refusal = await failure(desk.handlers['budget.set']({ handle, ...change }));
        expect(refusal.code).toBe('passphrase_required');
        expect(refusal.message).toMatch(
          change.monthlyUnits === null ? /^Clearing the budget/ : /^Raising the budget/,
        );
      }
      const spend = await desk.handlers['purchases.spend']({});
      expect(spend.byHandle.find((row) => row.handle === handle)?.budgetUnits).toBe('10000');
      await desk.handlers['budget.set']({ handle, monthlyUnits: null, passphrase: PASSPHRASE });
      expect(
        (await desk.handlers['purchases.spend']({})).byHandle.find((r) => r.handle === handle)?.budgetUnits ??
          null,
      ).toBeNull();
    });
  }

  it('needs nothing more for a run with its own key, or a desk with no keystore', async () => {
    const data = tempDir('desk-consent-session-');
    const desk = await deskFor(stack, data.dir);
    cleanups.push(data.remove, () => desk.close());
    await desk.handlers['wallet.useSessionKey']({ privateKey: stack.buyerKeys[0]! });
    await desk.handlers['settings.update']({ perPurchaseCapUnits: '9000000' });
    await desk.handlers['budget.set']({ handle, monthlyUnits: '10000' });
    await desk.handlers['budget.set']({ handle, monthlyUnits: null });
    expect((await caps(desk)).perPurchaseCapUnits).toBe('9000000');
  });
});

describe('going over a cap with the keystore needs its passphrase', () => {
  it('refuses acceptOverCap without it or with a wrong one, signs nothing, and pays with it', async () => {
    const { desk, dir } = await keystoreDesk();
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    await desk.handlers['settings.update']({ perPurchaseCapUnits: '5000' });
    const before = await balanceOf(stack, payer);
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [ids[0]!] } });
    expect(quote.overPurchaseCap).toBe(true);
    const start = (passphrase?: string) =>
      desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
        acceptOverCap: true,
        ...(passphrase === undefined ? {} : { passphrase }),
      });
    expect((await failure(start())).code).toBe('passphrase_required');
    expect((await failure(start('not the passphrase'))).code).toBe('wrong_passphrase');
    expect(ledgerRows(dir)).toEqual([]);
    expect(await balanceOf(stack, payer)).toBe(before);

    const paid = await start(PASSPHRASE);
    expect(paid.status).toBe('completed');
    expect(await balanceOf(stack, payer)).toBe(before - 10_000n);
  });

  it('asks nothing when the payment is within every cap', async () => {
    const { desk } = await keystoreDesk();
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [ids[1]!] } });
    expect(quote.overPurchaseCap).toBe(false);
    const paid = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
      acceptOverCap: true,
    });
    expect(paid.status).toBe('completed');
  });

  it('approving an assistant request over a cap needs it too', async () => {
    const { desk } = await keystoreDesk();
    await desk.handlers['settings.update']({ perPurchaseCapUnits: '5000' });
    const { id } = await desk.handlers['purchaseRequest.create']({
      handle,
      selection: { kind: 'ids', ids: [ids[2]!] },
    });
    const refusal = await failure(desk.handlers['purchaseRequest.approve']({ id, acceptOverCap: true }));
    expect(refusal.code).toBe('passphrase_required');
    expect((await desk.handlers['purchaseRequest.get']({ id })).state).toBe('pending');
    const { outcome } = await desk.handlers['purchaseRequest.approve']({
      id,
      acceptOverCap: true,
      passphrase: PASSPHRASE,
    });
    expect(outcome.status).toBe('completed');
  });
});
