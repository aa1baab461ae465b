/**
 * Spend as it really happens against the reference service and anvil: a completed purchase counts, one whose
 * answer a gateway replaced with a 502 after the service settled counts in full while in doubt, and one whose
 * payment never left this computer counts nothing. The desk reaches the service through a flaky proxy (to go
 * down) in front of a hostile one (to answer for the gateway).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { localDayKey } from '../../src/shared/money';
import { balanceOf, buyAll, deskWithWallet, signExternal, tempDir } from './helpers';
import { startHostileProxy, type HostileProxy } from './hostile-proxy';
import { startFlakyProxy, type FlakyProxy } from './flaky-proxy';
import { sameDayClock } from './clock';

let stack: Stack;
let gateway: HostileProxy;
let network: FlakyProxy;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let handles: string[];
/** The desk's clock: one local day for the whole file, so today's spend is the day of its purchases. */
const now = sameDayClock();

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 3, minReportsPerHandle: 2, maxReportsPerHandle: 2 },
    buyerCount: 1,
  });
  gateway = await startHostileProxy(stack.baseUrl);
  network = await startFlakyProxy(gateway.url);
  data = tempDir('desk-spend-');
  ({ desk } = await deskWithWallet({ ...stack, baseUrl: network.url }, data.dir, 0, { now }));
  await desk.handlers['settings.update']({ perPurchaseCapUnits: '1000000', dailyCapUnits: '5000000' });
  handles = (await desk.handlers['shelf.list']({})).entries.map((entry) => entry.username);
});
afterAll(async () => {
  await desk?.close();
  await network?.close();
  await gateway?.close();
  await stack?.stop();
  data?.remove();
});

describe('purchases.spend', () => {
  it('counts completed and in-doubt purchases in full and failed ones not at all', async () => {
    const [completedHandle, doubtHandle, failedHandle] = handles as [string, string, string];
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const before = await balanceOf(stack, payer);

    expect((await buyAll(desk, completedHandle)).outcome.status).toBe('completed');

    gateway.paidAnswer = { status: 502, body: '<h1>502</h1>' };
    try {
      expect((await buyAll(desk, doubtHandle)).outcome.status).toBe('in_doubt');
    } finally {
      gateway.paidAnswer = null;
    }

    // Signed in an external wallet; by the time the signature comes back the service is gone.
    const account = privateKeyToAccount(stack.buyerKeys[0]!);
    await desk.handlers['wallet.useExternal']({ address: account.address });
    const quote = await desk.handlers['quote.get']({ handle: failedHandle, selection: { kind: 'all' } });
    const started = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    if (started.status !== 'needs_signature') throw new Error('expected a signature request');
    const signature = await signExternal(account, started.request);
    network.down();
    try {
      expect((await desk.handlers['shelf.list']({})).stale).toBe(true);
      const failed = await desk.handlers['purchase.submitSignature']({
        purchaseId: started.request.purchaseId,
        signature,
      });
      expect(failed).toMatchObject({ status: 'failed', code: 'service_unreachable' });
    } finally {
      await network.up();
    }

    // Two purchases of 2 reports at $0.01 moved money; the failed one did not.
    expect(before - (await balanceOf(stack, payer))).toBe(40_000n);
    const view = await desk.handlers['purchases.spend']({ days: 7 });
    expect(view).toMatchObject({
      lifetimeUnits: '40000',
      monthUnits: '40000',
      todayUnits: '40000',
      unsettledUnits: '20000',
    });
    expect(view.byHandle.map((row) => [row.handle, row.totalUnits, row.purchases])).toEqual(
      [
        [completedHandle, '20000', 1],
        [doubtHandle, '20000', 1],
      ].sort((a, b) => String(a[0]).toLowerCase().localeCompare(String(b[0]).toLowerCase())),
    );
    expect(view.byDay).toHaveLength(7);
    expect(view.byDay.at(-1)).toEqual({ day: localDayKey(now()), units: '40000' });
    expect(view.byDay.slice(0, -1).every((day) => day.units === '0')).toBe(true);
    // The same rule as the daily cap: both say the same about today.
    expect((await desk.handlers['purchases.list']({})).spentTodayUnits).toBe(view.todayUnits);
  });
});
