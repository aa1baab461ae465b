/**
 * While a purchase of a date range is unresolved, no range that may share a report with it is paid for:
 * ranges that share an endpoint (the service's bounds are inclusive), ranges that overlap or contain it, and
 * ranges open at one end. A range that provably shares no report is paid for. Each refusal is checked where
 * the money is: no payment reached the service, the balance on chain did not move, and the ledger holds no
 * new row. The unresolved purchase is real: the service settled it and a gateway answered 502.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import type { Selection } from '../../src/shared/rpc';
import { balanceOf, deskWithWallet, failure, ledgerRows, tempDir } from './helpers';
import { startHostileProxy, type HostileProxy } from './hostile-proxy';

let stack: Stack;
let proxy: HostileProxy;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let payer: `0x${string}`;
let handles: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 6, maxReportsPerHandle: 6 },
    buyerCount: 1,
  });
  proxy = await startHostileProxy(stack.baseUrl);
  data = tempDir('desk-guard-ranges-');
  ({ desk, address: payer } = await deskWithWallet(stack, data.dir, 0, { serviceUrl: proxy.url }));
  handles = (await desk.handlers['shelf.list']({})).entries.map((entry) => entry.username);
});
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await stack?.stop();
  data?.remove();
});

/** A handle's report dates, oldest first (all distinct in the seed). */
async function datesOf(handle: string): Promise<string[]> {
  const menu = await desk.handlers['menu.get']({ handle });
  const dates = menu.reports.map((r) => r.createdAt).sort();
  expect(new Set(dates).size).toBe(dates.length);
  return dates;
}

/** Buys the range; the service settles it and a gateway answers 502: in doubt, paid on chain. */
async function leaveInDoubt(handle: string, selection: Selection): Promise<string> {
  const quote = await desk.handlers['quote.get']({ handle, selection });
  proxy.paidAnswer = { status: 502, body: '<html>Bad gateway</html>' };
  try {
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    if (outcome.status !== 'in_doubt') throw new Error(`expected in doubt, got ${outcome.status}`);
    return outcome.purchase.id;
  } finally {
    proxy.paidAnswer = null;
  }
}

/** Asked to buy `selection`, the desk refuses and nothing moves: no payment sent, no ledger row, no USDC. */
async function expectBlocked(handle: string, selection: Selection, blocker: string): Promise<void> {
  const payments = proxy.paymentsSeen.length;
  const rows = ledgerRows(data.dir).length;
  const before = await balanceOf(stack, payer);
  const quote = await desk.handlers['quote.get']({ handle, selection });
  const refusal = await failure(
    desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
  );
  expect([refusal.code, refusal.details['purchaseId']], JSON.stringify(selection)).toEqual([
    'purchase_in_doubt',
    blocker,
  ]);
  expect(proxy.paymentsSeen).toHaveLength(payments);
  expect(ledgerRows(data.dir)).toHaveLength(rows);
  expect(await balanceOf(stack, payer)).toBe(before);
}

async function expectBought(handle: string, selection: Selection, count: number): Promise<void> {
  const before = await balanceOf(stack, payer);
  const quote = await desk.handlers['quote.get']({ handle, selection });
  const outcome = await desk.handlers['purchase.start']({
    quoteId: quote.quoteId,
    confirmedAmount: quote.amount,
  });
  if (outcome.status !== 'completed') {
    throw new Error(`${JSON.stringify(selection)}: expected completed, got ${outcome.status}`);
  }
  expect(outcome.purchase.reportIds).toHaveLength(count);
  expect(before - (await balanceOf(stack, payer))).toBe(BigInt(count) * 10_000n);
}

describe('the guard against paying while a purchase of a date range is unresolved', () => {
  it('refuses ranges that share an endpoint, overlap or contain it, and pays for one apart', async () => {
    const handle = handles[0]!;
    const t = await datesOf(handle);
    const blocker = await leaveInDoubt(handle, { kind: 'dates', from: t[1]!, to: t[3]! });

    await expectBlocked(handle, { kind: 'dates', from: t[3]!, to: t[5]! }, blocker);
    await expectBlocked(handle, { kind: 'dates', from: t[0]!, to: t[1]! }, blocker);
    await expectBlocked(handle, { kind: 'dates', from: t[2]!, to: t[4]! }, blocker);
    await expectBlocked(handle, { kind: 'dates', from: t[0]!, to: t[2]! }, blocker);
    await expectBlocked(handle, { kind: 'dates', from: t[0]!, to: t[5]! }, blocker);
    await expectBlocked(handle, { kind: 'dates', from: t[2]!, to: t[2]! }, blocker);
    // Shares no report: paid for.
    await expectBought(handle, { kind: 'dates', from: t[4]!, to: t[5]! }, 2);
  });

  it('refuses ranges open at one end that reach it, and pays for one that ends before it', async () => {
    const handle = handles[1]!;
    const t = await datesOf(handle);
    // From t3 on, with no end.
    const blocker = await leaveInDoubt(handle, { kind: 'dates', from: t[3]! });

    await expectBlocked(handle, { kind: 'dates', to: t[3]! }, blocker);
    await expectBlocked(handle, { kind: 'dates', to: t[5]! }, blocker);
    await expectBlocked(handle, { kind: 'dates', from: t[1]!, to: t[4]! }, blocker);
    await expectBlocked(handle, { kind: 'dates', from: t[5]! }, blocker);
    await expectBlocked(handle, { kind: 'dates', from: t[0]! }, blocker);
    // Ends before t3: paid for.
    await expectBought(handle, { kind: 'dates', to: t[2]! }, 3);
  });
});
