/**
 * report.get over a real seeded desk: which handle a report is about (its name from the cached shelf) and
 * its place in the handle's timeline of owned reports, with the previousReportId / change-summary chain, and
 * the reports of the last menu seen that are not owned, which report.diff counts between two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { deskWithWallet, firstHandle, tempDir } from './helpers';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let handle: string;
let displayName: string | undefined;
/** The menu's reports oldest first; the second one is left unbought. */
let ids: string[];

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 1, minReportsPerHandle: 4, maxReportsPerHandle: 4 } });
  data = tempDir('desk-timeline-');
  ({ desk } = await deskWithWallet(stack, data.dir));
  const first = await firstHandle(stack);
  ids = [...first.ids].reverse();
  // The shelf is fetched before anything is bought, so handle_names has no name for the handle yet.
  const shelf = await desk.handlers['shelf.list']({});
  const entry = shelf.entries.find((e) => e.username === first.handle)!;
  handle = entry.username;
  displayName = entry.displayName;
  const owned = ids.filter((_, i) => i !== 1);
  const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: owned } });
  const outcome = await desk.handlers['purchase.start']({
    quoteId: quote.quoteId,
    confirmedAmount: quote.amount,
  });
  expect(outcome.status).toBe('completed');
}, 60_000);

afterAll(async () => {
  await desk?.close();
  await stack?.stop();
  data?.remove();
});

describe('report.get: the handle and the timeline', () => {
  it('names the handle as bought and as the cached shelf names it', async () => {
    expect(displayName).toBeTruthy();
    const view = await desk.handlers['report.get']({ id: ids[3]! });
    expect(view.handle).toBe(handle.toLowerCase());
    expect(view.username).toBe(handle);
    expect(view.displayName).toBe(displayName);
    // Once a shelf is fetched with the handle owned, the name comes from handle_names: still the same.
    await desk.handlers['shelf.list']({ refresh: true });
    expect((await desk.handlers['report.get']({ id: ids[0]! })).displayName).toBe(displayName);
  });

  it('lists the owned reports oldest first, each with its date, post count and chain link', async () => {
    const stored: IntelReportSnapshot[] = [];
    for (const id of [ids[0]!, ids[2]!, ids[3]!])
      stored.push((await desk.handlers['report.get']({ id })).snapshot);
    const { timeline } = await desk.handlers['report.get']({ id: ids[2]! });
    expect(timeline.map((t) => t.id)).toEqual([ids[0], ids[2], ids[3]]);
    expect(timeline).toEqual(
      stored.map((s) => ({
        id: s.id,
        createdAt: s.createdAt,
        model: s.model,
        postCount: s.meta.postCount,
        previousReportId: s.previousReportId ?? null,
        changeHeadline: (s.changeSummary as { headline?: string } | null)?.headline ?? null,
      })),
    );
    // The baseline has no link; the third links to the unbought second, which the timeline does not hold.
    expect(timeline[0]!.previousReportId).toBeNull();
    expect(timeline[0]!.changeHeadline).toBeNull();
    expect(timeline[1]!.previousReportId).toBe(ids[1]);
    expect(timeline[2]!.previousReportId).toBe(ids[2]);
    expect(timeline[2]!.changeHeadline).toMatch(/posts than the previous report/);
  });

  it('adds the reports the last menu seen lists and the library lacks, and counts them between two', async () => {
    // No menu seen yet on this desk: nothing is claimed about reports not owned.
    const before = await desk.handlers['report.get']({ id: ids[2]! });
    expect(before).toMatchObject({ notOwned: [], menuCount: null });
    const menu = await desk.handlers['menu.get']({ handle });
    const missing = menu.reports.find((r) => r.id === ids[1])!;
    const view = await desk.handlers['report.get']({ id: ids[2]! });
    expect(view.menuCount).toBe(4);
    expect(view.notOwned).toEqual([
      { id: ids[1], createdAt: missing.createdAt, model: missing.model, postCount: missing.postCount },
    ]);
    // The first and the third sit around the unbought second: not consecutive on the service.
    const around = await desk.handlers['report.diff']({ a: { id: ids[0]! }, b: { id: ids[2]! } });
    expect(around).toMatchObject({ reportsBetween: 0, notOwnedBetween: 1 });
    const next = await desk.handlers['report.diff']({ a: { id: ids[2]! }, b: { id: ids[3]! } });
    expect(next).toMatchObject({ reportsBetween: 0, notOwnedBetween: 0 });
  });
});
