/**
 * The renderer: bundle size, time to first shelf paint in browser mode, filter latency on a 100k-handle shelf,
 * and memory with 10k reports in the local cache. Real service stack, real desk host, Debian's Chromium.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { openDeskDb } from '../src/core/db/open';
import { SnapshotStore } from '../src/core/library/snapshots';
import { startBenchStack, type Stack } from './stack';
import type { ShelfEntry } from '../src/shared/wire';
import { buildIfStale } from '../scripts/build-if-stale';
import { bundleFigures } from './bundle';
import { jsHeapUsedBytes, launchChromium } from './chromium';
import { reportCorpus } from './corpus';
import { startDeskChild, type DeskChild } from './desk-child';
import { burstPlan, filterPlan } from './filter-plan';
import { percentile, round, type Section } from './measure';
import {
  burstTimings,
  filterTimings,
  firstShelfPaints,
  libraryMemory,
  openShelf,
  waitForShelfHaystacks,
  type ShelfPaint,
} from './renderer-page';

const root = path.resolve(import.meta.dirname, '..');
const rendererDir = path.join(root, 'out', 'renderer');
const PAINT_RUNS = 7;
const PAINT_RUNS_100K = 3;
const CACHED_REPORTS = 10_000;
/** Opens of a never-indexed 10k library, each on its own copy. */
const NEVER_INDEXED_OPENS = 3;
const BIG_SHELF = { handles: 100_000, minReportsPerHandle: 1, maxReportsPerHandle: 3, compact: true };
/** About 110 timed keys: a p95 from 54 moved by 3 ms between runs of the same build. */
const FILTER_QUERIES = 24;
const BURSTS = 6;
const MB = 2 ** 20;

type Figures = Record<string, number | string>;

let sectionStart = performance.now();
/** Progress on stderr: this section takes minutes, and a stall should say where it is. */
function step(what: string): void {
  process.stderr.write(`\n  [${((performance.now() - sectionStart) / 1000).toFixed(1)} s] ${what}`);
}

/** Everything this section starts, so `finally` can stop all of it. */
class Running {
  browser: Browser | null = null;
  stack: Stack | null = null;
  desks: DeskChild[] = [];
  dirs: string[] = [];

  tempDir(prefix: string): string {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  async desk(dataDir: string, stack: Stack): Promise<DeskChild> {
    const desk = await startDeskChild({
      dataDir,
      serviceUrl: stack.baseUrl,
      rpcUrl: stack.rpcUrl,
      demoAsset: stack.asset,
      rendererDir,
    });
    this.desks.push(desk);
    return desk;
  }

  async stopStack(): Promise<void> {
    const stack = this.stack;
    this.stack = null;
    await stack?.stop();
  }

  /** Stops everything, in order, even when one of the steps fails. */
  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    const steps = [
      ...this.desks.splice(0).map((desk) => () => desk.close()),
      async () => browser?.close(),
      () => this.stopStack(),
    ];
    for (const stop of steps) {
      await stop().catch((error: unknown) => process.stderr.write(`\n  cleanup failed: ${String(error)}`));
    }
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

const median = (samples: number[]) => round(percentile(samples, 50), 0);

function paintFigures(paints: ShelfPaint[], suffix: string): Figures {
  return {
    [`first_shelf_paint_median_ms_${suffix}`]: median(paints.map((p) => p.wallMs)),
    [`first_shelf_paint_max_ms_${suffix}`]: round(Math.max(...paints.map((p) => p.wallMs)), 0),
    [`first_shelf_row_in_dom_median_ms_${suffix}`]: median(paints.map((p) => p.inPageMs)),
    [`first_shelf_rpc_median_ms_${suffix}`]: median(paints.map((p) => p.shelfRpcMs)),
    [`first_shelf_paint_runs_${suffix}`]: paints.length,
  };
}

/** Fills the desk's own SQLite cache, the way a purchase stores snapshots, before the desk opens it. */
function fillCache(dataDir: string, count: number): void {
  const { db } = openDeskDb(path.join(dataDir, 'desk.db'));
  try {
    const store = new SnapshotStore(db);
    const corpus = reportCorpus(count);
    for (let i = 0; i < corpus.length; i += 500) {
      db.transaction(() => {
        for (const { handle, snapshot, raw } of corpus.slice(i, i + 500))
          store.put('http://bench.invalid', handle, [{ snapshot, raw }], null, '2026-11-22T00:00:00.000Z');
      })();
    }
  } finally {
    db.close();
  }
}

async function shelfEntries(stack: Stack): Promise<ShelfEntry[]> {
  const response = await fetch(`${stack.baseUrl}/api/intel/list`);
  return ((await response.json()) as { entries: ShelfEntry[] }).entries;
}

async function demoShelf(run: Running, browser: Browser): Promise<Figures> {
  step('demo stack');
  const stack = (run.stack = await startBenchStack({ buyerCount: 1 }));
  step('first shelf paints, demo shelf');
  const empty = await run.desk(run.tempDir('bench-desk-empty-'), stack);
  const paints = await firstShelfPaints(browser, empty.url, PAINT_RUNS);
  step('Library memory, empty cache');
  const bare = await libraryMemory(browser, empty, 0);
  step(`filling a desk cache with ${CACHED_REPORTS} reports`);
  const fullDir = run.tempDir('bench-desk-10k-');
  fillCache(fullDir, CACHED_REPORTS);
  // A library is opened never indexed once only: later opens are timed on copies made before the first.
  const copies = Array.from({ length: NEVER_INDEXED_OPENS - 1 }, () => {
    const dir = run.tempDir('bench-desk-10k-copy-');
    copyFileSync(path.join(fullDir, 'desk.db'), path.join(dir, 'desk.db'));
    return dir;
  });
  step(`Library memory, ${CACHED_REPORTS} cached reports`);
  const full = await libraryMemory(browser, await run.desk(fullDir, stack), CACHED_REPORTS);
  const opens = [full];
  for (const dir of copies) {
    const desk = await run.desk(dir, stack);
    opens.push(await libraryMemory(browser, desk, CACHED_REPORTS));
    await desk.close();
  }
  const handles = (await shelfEntries(stack)).length;
  await run.stopStack();
  const mb = (bytes: number) => round(bytes / MB, 1);
  return {
    demo_shelf_handles: handles,
    ...paintFigures(paints, 'demo'),
    library_heap_mb_empty: mb(bare.pageHeapBytes),
    library_heap_mb_10k: mb(full.pageHeapBytes),
    library_heap_ratio_10k_vs_empty: round(full.pageHeapBytes / bare.pageHeapBytes),
    library_screen_ms_10k: median(opens.map((open) => open.libraryMs)),
    library_screen_click_event_to_painted_median_ms_10k: median(opens.map((open) => open.libraryPaintedMs)),
    library_screen_click_event_to_painted_max_ms_10k: round(
      Math.max(...opens.map((o) => o.libraryPaintedMs)),
      0,
    ),
    library_screen_opens_10k: opens.length,
    desk_rss_mb_before_page_empty: mb(bare.deskBefore.rss),
    desk_rss_mb_before_page_10k: mb(full.deskBefore.rss),
    desk_rss_mb_after_library_empty: mb(bare.deskAfter.rss),
    desk_rss_mb_after_library_10k: mb(full.deskAfter.rss),
    desk_rss_delta_mb_10k_vs_empty: mb(full.deskAfter.rss - bare.deskAfter.rss),
    desk_peak_rss_mb_empty: mb(bare.deskAfter.maxRss),
    desk_peak_rss_mb_10k: mb(full.deskAfter.maxRss),
    desk_peak_rss_delta_mb_10k_vs_empty: mb(full.deskAfter.maxRss - bare.deskAfter.maxRss),
  };
}

async function bigShelf(run: Running, browser: Browser): Promise<Figures> {
  step('stack seeded with 100k handles');
  const started = performance.now();
  const stack = (run.stack = await startBenchStack({ seed: BIG_SHELF, buyerCount: 1 }));
  const stackMs = performance.now() - started;
  const listStart = performance.now();
  const listResponse = await fetch(`${stack.baseUrl}/api/intel/list`);
  const listBody = await listResponse.text();
  const listMs = performance.now() - listStart;
  const entries = (JSON.parse(listBody) as { entries: ShelfEntry[] }).entries;
  if (entries.length !== BIG_SHELF.handles) throw new Error(`the shelf holds ${entries.length} handles`);
  const desk = await run.desk(run.tempDir('bench-desk-100k-'), stack);
  step('first shelf paints, 100k handles');
  const paints = await firstShelfPaints(browser, desk.url, PAINT_RUNS_100K);
  const page = await openShelf(browser, desk.url);
  await waitForShelfHaystacks(page);
  const shelfHeap = await jsHeapUsedBytes(page);
  const plan = filterPlan(entries, FILTER_QUERIES);
  step(`filter latency, ${plan.reduce((n, q) => n + q.keys.length, 0)} keystrokes`);
  const timings = await filterTimings(page, plan, entries.length);
  const bursts = burstPlan(entries, BURSTS);
  step(`filter latency, ${bursts.length} bursts of 10 keys`);
  const burst = await burstTimings(page, bursts, entries.length);
  step('done\n');
  await page.close();
  const updated = timings.narrowing.map((t) => t.updated);
  const framed = timings.narrowing.map((t) => t.framed);
  const afterFramed = timings.narrowing.map((t) => t.afterFrame);
  const cleared = timings.clearing.map((t) => t.framed);
  const burstFramed = burst.keyFrames.map((k) => k.framed);
  const burstAfterFramed = burst.keyFrames.map((k) => k.afterFrame);
  return {
    stack_start_with_100k_handles_s: round(stackMs / 1000, 1),
    service_list_100k_ms: round(listMs, 0),
    service_list_100k_bytes: Buffer.byteLength(listBody),
    ...paintFigures(paints, '100k'),
    shelf_heap_mb_100k: round(shelfHeap / MB, 1),
    filter_queries: plan.map((q) => q.text).join(' '),
    filter_keystrokes_timed: updated.length,
    filter_keystrokes_untimed: timings.untimedKeys,
    filter_to_list_updated_median_ms_100k: round(percentile(updated, 50), 1),
    filter_to_list_updated_p95_ms_100k: round(percentile(updated, 95), 1),
    filter_to_next_frame_median_ms_100k: round(percentile(framed, 50), 1),
    filter_to_next_frame_p95_ms_100k: round(percentile(framed, 95), 1),
    filter_to_task_after_frame_median_ms_100k: round(percentile(afterFramed, 50), 1),
    filter_to_task_after_frame_p95_ms_100k: round(percentile(afterFramed, 95), 1),
    filter_clear_to_next_frame_median_ms_100k: round(percentile(cleared, 50), 1),
    filter_clear_to_next_frame_p95_ms_100k: round(percentile(cleared, 95), 1),
    filter_burst_keys_timed: burstFramed.length,
    filter_burst_key_to_next_frame_median_ms_100k: round(percentile(burstFramed, 50), 1),
    filter_burst_key_to_next_frame_p95_ms_100k: round(percentile(burstFramed, 95), 1),
    filter_burst_key_to_task_after_frame_p95_ms_100k: round(percentile(burstAfterFramed, 95), 1),
  };
}

export const rendererSection: Section = {
  name: 'renderer (browser mode, Chromium)',
  async run() {
    sectionStart = performance.now();
    await buildIfStale(root, (line) => process.stdout.write(`\n  ${line}\n`));
    const figures: Figures = bundleFigures(rendererDir);
    const run = new Running();
    try {
      const browser = (run.browser = await launchChromium());
      Object.assign(figures, await demoShelf(run, browser));
      for (const desk of run.desks.splice(0)) await desk.close();
      Object.assign(figures, await bigShelf(run, browser));
      return figures;
    } finally {
      await run.close();
    }
  },
};
