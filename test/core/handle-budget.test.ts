/**
 * A monthly budget per handle, beside the daily and per-purchase caps: the quote says when a purchase would
 * go over it, purchase.start refuses it until the person accepts going over (the caps' own consent), and two
 * purchases of the same handle started at once cannot pass it together. It counts the local calendar month.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { rpcErrorDetails } from '../../src/shared/rpc-errors';
import { startOfLocalMonth } from '../../src/shared/money';
import { balanceOf, deskFor, failure, PASSPHRASE, signExternal, tempDir } from './helpers';
import { startFlakyProxy } from './flaky-proxy';
import type { ExternalSignRequest } from '../../src/shared/rpc';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let handles: string[];
/** The desk's clock: the wall clock, or a moment held still. */
const clock: { at: number | null } = { at: null };

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 3, minReportsPerHandle: 8, maxReportsPerHandle: 8 },
    buyerCount: 1,
  });
  data = tempDir('desk-handle-budget-');
  desk = await deskFor(stack, data.dir, { now: () => clock.at ?? Date.now() });
  await desk.handlers['wallet.import']({ privateKey: stack.buyerKeys[0]!, passphrase: PASSPHRASE });
  // The caps leave room: only the budget can say no.
  await desk.handlers['settings.update']({
    dailyCapUnits: '100000000',
    perPurchaseCapUnits: '100000000',
    passphrase: PASSPHRASE,
  });
  handles = (await desk.handlers['shelf.list']({})).entries.map((entry) => entry.username);
});
afterAll(async () => {
  await desk?.close();
  await stack?.stop();
  data?.remove();
});

async function reportIds(handle: string): Promise<string[]> {
  return (await desk.handlers['menu.get']({ handle })).reports.map((r) => r.id);
}

const quoteIds = (handle: string, ids: string[]) =>
  desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids } });

describe('a handle budget', () => {
  it('asks for confirmation to go over it, like the caps, and a confirmed purchase pays', async () => {
    const handle = handles[0]!;
    const ids = await reportIds(handle);
    // $0.03 a month: two reports at $0.01 fit, two more do not. Set in another case than the shelf's.
    await desk.handlers['budget.set']({ handle: handle.toUpperCase(), monthlyUnits: '30000' });
    const first = await quoteIds(handle, ids.slice(0, 2));
    expect(first.overHandleBudget).toBe(false);
    const paid = await desk.handlers['purchase.start']({
      quoteId: first.quoteId,
      confirmedAmount: first.amount,
    });
    expect(paid.status).toBe('completed');

    const over = await quoteIds(handle, ids.slice(2, 4));
    expect(over).toMatchObject({ overHandleBudget: true, overDailyCap: false, overPurchaseCap: false });
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const before = await balanceOf(stack, payer);
    const refusal = await failure(
      desk.handlers['purchase.start']({ quoteId: over.quoteId, confirmedAmount: over.amount }),
    );
    expect(refusal.code).toBe('over_handle_budget');
    expect(refusal.message).toMatch(/already spent on @\w+ this month/);
    expect(rpcErrorDetails(refusal, 'over_handle_budget')).toEqual({
      cap: '30000',
      amount: '20000',
      spent: '20000',
      handle: over.handle,
    });
    expect(await balanceOf(stack, payer)).toBe(before);

    const again = await quoteIds(handle, ids.slice(2, 4));
    const confirmed = await desk.handlers['purchase.start']({
      quoteId: again.quoteId,
      confirmedAmount: again.amount,
      acceptOverCap: true,
      passphrase: PASSPHRASE,
    });
    expect(confirmed.status).toBe('completed');
    expect(before - (await balanceOf(stack, payer))).toBe(20_000n);

    // Another handle has no budget; the spend view shows this one's against its budget.
    expect((await quoteIds(handles[1]!, (await reportIds(handles[1]!)).slice(0, 1))).overHandleBudget).toBe(
      false,
    );
    const spend = await desk.handlers['purchases.spend']({});
    const row = spend.byHandle.find((r) => r.handle.toLowerCase() === handle.toLowerCase());
    expect(row).toMatchObject({ monthUnits: '40000', budgetUnits: '30000', purchases: 2 });
  });

  it('counts the local calendar month: from the first of next month the budget is whole again', async () => {
    const handle = handles[0]!;
    const ids = await reportIds(handle);
    const nextMonth = new Date(startOfLocalMonth(Date.now()));
    nextMonth.setMonth(nextMonth.getMonth() + 1);
    clock.at = nextMonth.getTime() - 1;
    try {
      expect((await quoteIds(handle, ids.slice(4, 6))).overHandleBudget).toBe(true);
      clock.at = nextMonth.getTime();
      expect((await quoteIds(handle, ids.slice(4, 6))).overHandleBudget).toBe(false);
    } finally {
      clock.at = null;
    }
  });

  it('lets only one of two concurrent purchases of the handle through when both do not fit', async () => {
    const handle = handles[2]!;
    const ids = await reportIds(handle);
    await desk.handlers['budget.set']({ handle, monthlyUnits: '30000' });
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const before = await balanceOf(stack, payer);
    const quotes = await Promise.all([quoteIds(handle, ids.slice(0, 2)), quoteIds(handle, ids.slice(2, 4))]);
    expect(quotes.map((q) => q.overHandleBudget)).toEqual([false, false]);
    const outcomes = await Promise.allSettled(
      quotes.map((quote) =>
        desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      ),
    );
    const completed = outcomes.filter((o) => o.status === 'fulfilled' && o.value.status === 'completed');
    const refused = outcomes.filter(
      (o) => o.status === 'rejected' && (o.reason as { code?: string }).code === 'over_handle_budget',
    );
    expect(completed).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(before - (await balanceOf(stack, payer))).toBe(20_000n);
  });

  it('is cleared with null, and then nothing is over it', async () => {
    const handle = handles[0]!;
    const ids = await reportIds(handle);
    expect(await desk.handlers['budget.set']({ handle, monthlyUnits: null, passphrase: PASSPHRASE })).toEqual(
      {
        handle,
        monthlyUnits: null,
      },
    );
    expect((await quoteIds(handle, ids.slice(4, 6))).overHandleBudget).toBe(false);
    const spend = await desk.handlers['purchases.spend']({});
    expect(spend.byHandle.find((r) => r.handle === handle)?.budgetUnits).toBeNull();
  });

  it('judges an external signature again when it comes back, with the budget lowered meanwhile', async () => {
    const other = tempDir('desk-handle-budget-external-');
    const external = await deskFor(stack, other.dir);
    try {
      const account = privateKeyToAccount(stack.buyerKeys[0]!);
      await external.handlers['wallet.useExternal']({ address: account.address });
      await external.handlers['settings.update']({
        dailyCapUnits: '100000000',
        perPurchaseCapUnits: '100000000',
      });
      const handle = handles[1]!;
      await external.handlers['budget.set']({ handle, monthlyUnits: '25000' });
      const ids = (await external.handlers['menu.get']({ handle })).reports.map((r) => r.id).slice(4, 6);
      const request = async (id: string): Promise<ExternalSignRequest> => {
        const quote = await external.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [id] } });
        const started = await external.handlers['purchase.start']({
          quoteId: quote.quoteId,
          confirmedAmount: quote.amount,
        });
        if (started.status !== 'needs_signature') throw new Error('expected a signature request');
        return started.request;
      };
      const first = await request(ids[0]!);
      const paid = await external.handlers['purchase.submitSignature']({
        purchaseId: first.purchaseId,
        signature: await signExternal(account, first),
      });
      expect(paid.status).toBe('completed');
      // The second fits when asked for; while the wallet waits, the budget is lowered below it.
      const second = await request(ids[1]!);
      await external.handlers['budget.set']({ handle, monthlyUnits: '15000' });
      const before = await balanceOf(stack, account.address);
      const refusal = await failure(
        external.handlers['purchase.submitSignature']({
          purchaseId: second.purchaseId,
          signature: await signExternal(account, second),
        }),
      );
      expect(refusal.code).toBe('over_handle_budget');
      expect(await balanceOf(stack, account.address)).toBe(before);
    } finally {
      await external.close();
      other.remove();
    }
  });
});

describe('a budget names a handle the service lists', () => {
  it('refuses a handle the shelf does not list, live or from its saved copy, and keeps one nothing can check', async () => {
    const proxy = await startFlakyProxy(stack.baseUrl);
    const dirs = [tempDir('desk-budget-handle-'), tempDir('desk-budget-nothing-known-')];
    const open = (dir: string) => deskFor(stack, dir, { serviceUrl: proxy.url, timeoutMs: 1_000 });
    try {
      const live = await open(dirs[0]!.dir);
      const unknown = await failure(
        live.handlers['budget.set']({ handle: 'NoSuchHandle', monthlyUnits: '5000000' }),
      );
      expect(unknown).toMatchObject({ code: 'budget_unknown_handle', kind: 'usage' });
      expect(unknown.message).toBe(
        "The service's shelf lists no handle @NoSuchHandle, so no budget was set. Check the spelling against the Shelf.",
      );
      expect(
        await live.handlers['budget.set']({ handle: `@${handles[1]!}`, monthlyUnits: '5000000' }),
      ).toEqual({
        handle: handles[1]!,
        monthlyUnits: '5000000',
      });
      // Closing writes the shelf's copy; the next desk finds the service down.
      await live.close();
      proxy.down();

      const offline = await open(dirs[0]!.dir);
      try {
        const stale = await failure(
          offline.handlers['budget.set']({ handle: 'NoSuchHandle', monthlyUnits: '5000000' }),
        );
        expect(stale.code).toBe('budget_unknown_handle');
        expect(stale.message).toMatch(
          /^The copy of the service's shelf saved at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(the service did not answer\) lists no handle @NoSuchHandle/,
        );
        expect(
          await offline.handlers['budget.set']({ handle: handles[2]!, monthlyUnits: '2000000' }),
        ).toEqual({
          handle: handles[2]!,
          monthlyUnits: '2000000',
        });
        // Clearing never needs the shelf.
        expect(await offline.handlers['budget.set']({ handle: 'NoSuchHandle', monthlyUnits: null })).toEqual({
          handle: 'NoSuchHandle',
          monthlyUnits: null,
        });
        const budgets = (await offline.handlers['purchases.spend']({})).byHandle.map((row) => row.handle);
        expect(budgets).not.toContain('NoSuchHandle');
      } finally {
        await offline.close();
      }

      const blank = await open(dirs[1]!.dir);
      try {
        const kept = await blank.handlers['budget.set']({ handle: 'AnyHandle', monthlyUnits: '3000000' });
        expect(kept).toMatchObject({ handle: 'AnyHandle', monthlyUnits: '3000000' });
        expect(kept.unchecked).toMatch(/^the service did not answer and no copy of its shelf is saved \(/);
      } finally {
        await blank.close();
      }
    } finally {
      await proxy.close();
      for (const dir of dirs) dir.remove();
    }
  });
});
