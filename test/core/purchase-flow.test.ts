import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { balanceOf, deskFor, deskWithWallet, tempDir } from './helpers';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let payer: `0x${string}`;
let handle: string;

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 5, minReportsPerHandle: 10, maxReportsPerHandle: 14 } });
  data = tempDir('desk-flow-');
  ({ desk, address: payer } = await deskWithWallet(stack, data.dir));
  await desk.handlers['settings.update']({ perPurchaseCapUsd: 1, dailyCapUsd: 5 });
});
afterAll(async () => {
  await desk?.close();
  await stack?.stop();
  data?.remove();
});

describe('buying and reading', () => {
  it('quotes, buys all, buys a date range, buys the missing ones by id, and reads and searches offline', async () => {
    const shelf = await desk.handlers['shelf.list']({});
    expect(shelf.stale).toBe(false);
    handle = shelf.entries[2]!.username;
    const menu = await desk.handlers['menu.get']({ handle });
    expect(menu.reports.every((r) => !r.owned)).toBe(true);
    const start = await balanceOf(stack, payer);

    // A date range first: the three newest reports.
    const from = menu.reports[2]!.createdAt;
    const rangeQuote = await desk.handlers['quote.get']({ handle, selection: { kind: 'dates', from } });
    expect(rangeQuote).toMatchObject({
      reportCount: 3,
      amount: '30000',
      totalUsd: 0.03,
      payToStatus: 'new',
      network: 'eip155:31337',
    });
    const range = await desk.handlers['purchase.start']({
      quoteId: rangeQuote.quoteId,
      confirmedAmount: rangeQuote.amount,
    });
    expect(range.status).toBe('completed');
    if (range.status !== 'completed') return;
    expect(range.purchase.reportIds).toEqual(menu.reports.slice(0, 3).map((r) => r.id));
    expect(range.purchase.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf(stack, payer)).toBe(start - 30_000n);

    // Missing only: the menu marks what is owned, and ids buy exactly the rest.
    const afterRange = await desk.handlers['menu.get']({ handle });
    const missing = afterRange.reports.filter((r) => !r.owned).map((r) => r.id);
    expect(missing).toHaveLength(menu.reportCount - 3);
    const missingQuote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: missing },
    });
    expect(missingQuote.payToStatus).toBe('pinned');
    const rest = await desk.handlers['purchase.start']({
      quoteId: missingQuote.quoteId,
      confirmedAmount: missingQuote.amount,
    });
    expect(rest.status).toBe('completed');
    expect(await balanceOf(stack, payer)).toBe(start - 10_000n * BigInt(menu.reportCount));
    expect((await desk.handlers['menu.get']({ handle })).reports.every((r) => r.owned)).toBe(true);

    // All of another handle.
    const other = shelf.entries[3]!.username;
    const allQuote = await desk.handlers['quote.get']({ handle: other, selection: { kind: 'all' } });
    const all = await desk.handlers['purchase.start']({
      quoteId: allQuote.quoteId,
      confirmedAmount: allQuote.amount,
    });
    expect(all.status).toBe('completed');
    const spent = 10_000n * BigInt(menu.reportCount + allQuote.reportCount);
    expect(await balanceOf(stack, payer)).toBe(start - spent);

    const purchases = await desk.handlers['purchases.list']({});
    expect(purchases.purchases.map((p) => p.state)).toEqual(['completed', 'completed', 'completed']);
    expect(purchases.spentTodayUsd).toBeCloseTo(Number(spent) / 1e6, 6);
  });

  it('reads and searches the library with the service gone, after a restart', async () => {
    const library = await desk.handlers['library.list']({ handle });
    const newest = library.items[0]!;
    await desk.close();
    await stack.stop();

    desk = await deskFor(stack, data.dir);
    const shelf = await desk.handlers['shelf.list']({});
    expect(shelf.stale).toBe(true);
    expect(shelf.staleReason).toMatch(/Cannot reach/);
    const menu = await desk.handlers['menu.get']({ handle });
    expect(menu.stale).toBe(true);
    expect(menu.reports.every((r) => r.owned)).toBe(true);

    const report = await desk.handlers['report.get']({ id: newest.id });
    expect(report.snapshot.id).toBe(newest.id);
    expect(report.previous?.id).toBe(report.snapshot.previousReportId);
    expect(report.timeline.at(-1)?.id).toBe(newest.id);

    const word =
      String(report.snapshot.narrative['summary'])
        .split(/\W+/)
        .find((w) => w.length > 6) ?? 'posted';
    const hits = await desk.handlers['library.search']({ text: word.toLowerCase() });
    expect(hits.hits.length).toBeGreaterThan(0);
    expect(hits.hits[0]!.snippet).toContain('\u0001');

    const markdown = await desk.handlers['report.export']({ id: newest.id, format: 'md' });
    expect(markdown.content).toContain('## Summary');
    const json = await desk.handlers['report.export']({ id: newest.id, format: 'json' });
    expect(JSON.parse(json.content).id).toBe(newest.id);
  });
});
