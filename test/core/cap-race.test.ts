/**
 * Two purchases started at once (two windows, a double click on two handles) must not together go over the
 * daily cap: the second is judged with the first counted, even before the first reaches the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { balanceOf, deskFor, PASSPHRASE, tempDir } from './helpers';
import { sameDayClock } from './clock';
import { privateKeyToAccount } from 'viem/accounts';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let handles: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    buyerCount: 1,
  });
  data = tempDir('desk-cap-race-');
  // One local day for the file: both purchases are judged against the same day's cap (clock.ts).
  desk = await deskFor(stack, data.dir, { now: sameDayClock() });
  await desk.handlers['wallet.import']({ privateKey: stack.buyerKeys[0]!, passphrase: PASSPHRASE });
  // Room for one $0.02 purchase today, not two.
  await desk.handlers['settings.update']({ dailyCapUnits: '30000', perPurchaseCapUnits: '1000000' });
  handles = (await desk.handlers['shelf.list']({})).entries.map((entry) => entry.username);
});
afterAll(async () => {
  await desk?.close();
  await stack?.stop();
  data?.remove();
});

describe('daily cap under concurrent purchases', () => {
  it('lets only one of two concurrent purchases through when both do not fit', async () => {
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const before = await balanceOf(stack, payer);
    const quotes = await Promise.all(
      handles.map(async (handle) => {
        const ids = (await desk.handlers['menu.get']({ handle })).reports.slice(0, 2).map((r) => r.id);
        return desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids } });
      }),
    );
    const outcomes = await Promise.allSettled(
      quotes.map((quote) =>
        desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      ),
    );
    const completed = outcomes.filter((o) => o.status === 'fulfilled' && o.value.status === 'completed');
    const refused = outcomes.filter(
      (o) => o.status === 'rejected' && (o.reason as { code?: string }).code === 'over_daily_cap',
    );
    expect(completed).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(before - (await balanceOf(stack, payer))).toBe(20_000n);
    const view = await desk.handlers['purchases.list']({});
    expect(BigInt(view.spentTodayUnits) <= BigInt(view.dailyCapUnits)).toBe(true);
  });
});
