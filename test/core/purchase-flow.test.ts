import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { balanceOf, deskFor, deskWithWallet, ledgerRows, storedSnapshots, tempDir } from './helpers';
import { startFlakyProxy, type FlakyProxy } from './flaky-proxy';
import { sameDayClock } from './clock';

let stack: Stack;
let proxy: FlakyProxy;
const dirs: ReturnType<typeof tempDir>[] = [];
const desks: DeskCore[] = [];

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 5, minReportsPerHandle: 10, maxReportsPerHandle: 14 } });
  proxy = await startFlakyProxy(stack.baseUrl);
});
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
  for (const dir of dirs.splice(0)) dir.remove();
  await proxy.up().catch(() => undefined);
});
afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
});

/** A desk with a wallet on a data dir of this test's own, talking to the service through the proxy. */
async function newDesk(dir?: string) {
  const data = dir ? null : tempDir('desk-flow-');
  if (data) dirs.push(data);
  const { desk, address } = await deskWithWallet(stack, dir ?? data!.dir, 0, {
    serviceUrl: proxy.url,
    // One local day per desk, so what was spent today is what these tests bought (clock.ts).
    now: sameDayClock(),
  });
  desks.push(desk);
  await desk.handlers['settings.update']({ perPurchaseCapUnits: '1000000', dailyCapUnits: '5000000' });
  return { desk, payer: address, dir: dir ?? data!.dir };
}

describe('buying and reading', () => {
  it('quotes and buys a date range, the missing ones by id, and all of another handle, each paid on chain', async () => {
    const { desk, payer, dir } = await newDesk();
    const shelf = await desk.handlers['shelf.list']({});
    expect(shelf.stale).toBe(false);
    const handle = shelf.entries[2]!.username;
    const menu = await desk.handlers['menu.get']({ handle });
    expect(menu.reports.every((r) => !r.owned)).toBe(true);
    const start = await balanceOf(stack, payer);

    // A date range first: the three newest reports.
    const from = menu.reports[2]!.createdAt;
    const rangeQuote = await desk.handlers['quote.get']({ handle, selection: { kind: 'dates', from } });
    expect(rangeQuote).toMatchObject({
      reportCount: 3,
      amount: '30000',
      unitPriceUnits: '10000',
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
    expect(purchases.spentTodayUnits).toBe(spent.toString());
    expect(ledgerRows(dir).map((row) => [row.handle, row.amount, row.state])).toEqual([
      [handle, '30000', 'completed'],
      [handle, String(10_000 * (menu.reportCount - 3)), 'completed'],
      [other, allQuote.amount, 'completed'],
    ]);
  });

  it('reads and searches the library with the service gone, after a restart', async () => {
    const bought = await newDesk();
    const handle = (await bought.desk.handlers['shelf.list']({})).entries[1]!.username;
    const quote = await bought.desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
    const paid = await bought.desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    if (paid.status !== 'completed') throw new Error(`expected a completed purchase, got ${paid.status}`);
    const library = await bought.desk.handlers['library.list']({ handle });
    const newest = library.items[0]!;
    await bought.desk.close();
    desks.splice(desks.indexOf(bought.desk), 1);
    proxy.down();

    const desk = await deskFor(stack, bought.dir, { serviceUrl: proxy.url });
    desks.push(desk);
    const shelf = await desk.handlers['shelf.list']({});
    expect(shelf.stale).toBe(true);
    // Refused, or cut on a connection kept alive from before the restart: either way, no answer.
    expect(shelf.staleReason).toMatch(/Cannot reach|connection to the service at .* failed/);
    const menu = await desk.handlers['menu.get']({ handle });
    expect(menu.stale).toBe(true);
    expect(menu.reports.every((r) => r.owned)).toBe(true);

    const report = await desk.handlers['report.get']({ id: newest.id });
    expect(report.snapshot.id).toBe(newest.id);
    expect(report.previous?.id).toBe(report.snapshot.previousReportId);
    expect(report.timeline.map((entry) => entry.id).sort()).toEqual(
      library.items.map((item) => item.id).sort(),
    );

    const word =
      String(report.snapshot.narrative['summary'])
        .split(/\W+/)
        .find((w) => w.length > 6) ?? 'posted';
    const hits = await desk.handlers['library.search']({ text: word.toLowerCase() });
    expect(hits.hits.length).toBeGreaterThan(0);
    expect(hits.hits[0]!.snippet).toContain('\u0001');
    expect(hits.hits.map((hit) => hit.id)).toContain(newest.id);
    // Everything it finds and lists is what this purchase stored, for this handle.
    const stored = storedSnapshots(bought.dir);
    expect(stored.map((s) => s.id).sort()).toEqual([...paid.purchase.reportIds].sort());
    expect(
      stored.every(
        (s) => s.purchase_id === paid.purchase.id && s.handle.toLowerCase() === handle.toLowerCase(),
      ),
    ).toBe(true);
    for (const hit of hits.hits) expect(stored.map((s) => s.id)).toContain(hit.id);

    const markdown = await desk.handlers['report.export']({ id: newest.id, format: 'md' });
    expect(markdown.content).toContain('## Summary');
    const json = await desk.handlers['report.export']({ id: newest.id, format: 'json' });
    expect(JSON.parse(json.content).id).toBe(newest.id);
  });
});
