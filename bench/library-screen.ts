/**
 * The Library screen in Chromium (browser mode, real desk host, Debian's Chromium) with an empty, a 10k and a
 * 100k-report library, indexed as a person's is: click to the first rows, click to the count, keystroke to
 * next frame in its search box, and the resident memory of the window (Chromium's renderer processes) and of
 * the desk (host and core worker) with the library open.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildIfStale } from '../scripts/build-if-stale';
import { launchChromium } from './chromium';
import { startDeskChild, type DeskChild } from './desk-child';
import { fillLibraryFile } from './desk-library';
import { percentile, round, type Section } from './measure';
import { clickToLibraryCount, clickToLibraryShown, keyFrames, resetProbe, type KeyFrame } from './page-probe';
import { rendererRssBytes } from './process-rss';
import { BURST_KEY_GAP_MS, gotoShelf, openShelf } from './renderer-page';
import { startBenchStack, type Stack } from './stack';

const root = path.resolve(import.meta.dirname, '..');
const rendererDir = path.join(root, 'out', 'renderer');
const SIZES = [0, 10_000, 100_000] as const;
const OPEN_RUNS = 5;
const TIMEOUT_MS = 120_000;
/** Typed into the search box: single keys with a pause, then the same words back to back. */
const SEARCH_WORDS = ['market', 'energy', 'policy', 'growth', 'sentiment', 'network'];
const SINGLE_KEY_GAP_MS = 400;
const MB = 2 ** 20;

type Figures = Record<string, number | string>;

interface Opened {
  /**
   * Playwright's click on "Library" to the first row of the table in the DOM (or the empty library's message),
   * from Node: Playwright's checks before the click and its polling after it count too.
   */
  rowsMs: number;
  /** The same in the page, from its click event. */
  inPageMs: number;
  /** The page's click event to the end of the frame that shows the first rows: the target's figure. */
  paintedMs: number;
  /** Playwright's click to the count of owned reports, from Node. */
  countMs: number;
  /** The page's click event to the end of the frame that shows the count. */
  countPaintedMs: number;
}

const rowsOf = (page: Page) => page.locator('[data-testid="library-items"] tbody tr').first();

async function openLibrary(page: Page, reports: number): Promise<Opened> {
  const start = performance.now();
  await page.getByRole('link', { name: 'Library', exact: true }).click();
  if (reports === 0) {
    await page.getByText('Nothing owned yet.').waitFor({ timeout: TIMEOUT_MS });
    const ms = performance.now() - start;
    const shown = await clickToLibraryShown(page);
    return {
      rowsMs: ms,
      countMs: ms,
      inPageMs: shown.inDom,
      paintedMs: shown.painted,
      countPaintedMs: shown.painted,
    };
  }
  const rows = rowsOf(page)
    .waitFor({ state: 'attached', timeout: TIMEOUT_MS })
    .then(() => performance.now() - start);
  const count = page
    .locator('[data-testid="library-count"]')
    .filter({ hasText: `${reports.toLocaleString('en-US')} reports owned` })
    .waitFor({ timeout: TIMEOUT_MS })
    .then(() => performance.now() - start);
  const [rowsMs, countMs] = await Promise.all([rows, count]);
  const shown = await clickToLibraryShown(page);
  const countPaintedMs = await clickToLibraryCount(page, `${reports.toLocaleString('en-US')} reports owned`);
  return { rowsMs, countMs, inPageMs: shown.inDom, paintedMs: shown.painted, countPaintedMs };
}

/** keydown to next frame for each key typed in "Search owned reports", one by one and back to back. */
async function searchKeyFrames(page: Page): Promise<{ single: KeyFrame[]; burst: KeyFrame[] }> {
  const box = page.getByLabel('Search owned reports');
  const single: KeyFrame[] = [];
  const burst: KeyFrame[] = [];
  for (const word of SEARCH_WORDS) {
    await box.focus();
    await resetProbe(page);
    for (const key of word) {
      await page.keyboard.press(key);
      await page.waitForTimeout(SINGLE_KEY_GAP_MS);
    }
    single.push(...(await keyFrames(page, word.length)));
    await box.fill('');
    await resetProbe(page);
    await page.keyboard.type(word, { delay: BURST_KEY_GAP_MS });
    burst.push(...(await keyFrames(page, word.length)));
    await box.fill('');
    await rowsOf(page).waitFor({ state: 'attached', timeout: TIMEOUT_MS });
  }
  return { single, burst };
}

const median = (samples: number[]) => round(percentile(samples, 50), 0);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

async function measureSize(browser: Browser, stack: Stack, reports: number, step: (s: string) => void) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `bench-library-${reports}-`));
  let desk: DeskChild | null = null;
  try {
    if (reports > 0) {
      step(`filling and indexing a ${reports}-report library`);
      fillLibraryFile(path.join(dataDir, 'desk.db'), reports);
    }
    const deskStart = performance.now();
    desk = await startDeskChild({
      dataDir,
      serviceUrl: stack.baseUrl,
      rpcUrl: stack.rpcUrl,
      demoAsset: stack.asset,
      rendererDir,
    });
    const deskStartMs = performance.now() - deskStart;
    step(`opening the Library, ${reports} reports`);
    const opens: Opened[] = [];
    const paints: number[] = [];
    for (let run = 0; run < OPEN_RUNS; run++) {
      const { page, paint } = await gotoShelf(browser, desk.url);
      paints.push(paint.wallMs);
      opens.push(await openLibrary(page, reports));
      await page.close();
    }
    const suffix = reports === 0 ? 'empty' : `${reports / 1000}k`;
    const figures: Figures = {
      // The desk's process started on this library, then the first window's first shelf row; then reloads.
      [`desk_start_ms_${suffix}`]: round(deskStartMs, 0),
      [`first_shelf_paint_after_start_ms_${suffix}`]: round(paints[0]!, 0),
      [`first_shelf_paint_median_ms_${suffix}`]: median(paints),
      [`library_click_event_to_first_rows_painted_median_ms_${suffix}`]: median(
        opens.map((o) => o.paintedMs),
      ),
      [`library_click_event_to_first_rows_painted_max_ms_${suffix}`]: round(
        Math.max(...opens.map((o) => o.paintedMs)),
        0,
      ),
      [`library_click_event_to_count_painted_median_ms_${suffix}`]: median(
        opens.map((o) => o.countPaintedMs),
      ),
      [`library_click_to_first_rows_median_ms_${suffix}`]: median(opens.map((o) => o.rowsMs)),
      [`library_click_to_first_rows_max_ms_${suffix}`]: round(Math.max(...opens.map((o) => o.rowsMs)), 0),
      [`library_click_to_count_median_ms_${suffix}`]: median(opens.map((o) => o.countMs)),
      [`library_click_event_to_first_rows_in_page_median_ms_${suffix}`]: median(opens.map((o) => o.inPageMs)),
      [`library_click_event_to_first_rows_in_page_max_ms_${suffix}`]: round(
        Math.max(...opens.map((o) => o.inPageMs)),
        0,
      ),
    };
    if (reports === 10_000) return figures;
    step(`memory with the Library open, ${reports} reports`);
    const page = await openShelf(browser, desk.url);
    try {
      await openLibrary(page, reports);
      const session = await page.context().newCDPSession(page);
      await session.send('HeapProfiler.collectGarbage');
      await session.detach();
      figures[`window_rss_mb_${suffix}`] = round(sum(rendererRssBytes()) / MB, 1);
      figures[`desk_rss_mb_${suffix}`] = round((await desk.memory()).rss / MB, 1);
      if (reports > 0) {
        step('typing in the Library search box');
        const keys = await searchKeyFrames(page);
        const single = keys.single.map((k) => k.framed);
        const burst = keys.burst.map((k) => k.framed);
        figures[`search_key_to_next_frame_median_ms_${suffix}`] = round(percentile(single, 50), 1);
        figures[`search_key_to_next_frame_p95_ms_${suffix}`] = round(percentile(single, 95), 1);
        figures[`search_key_to_task_after_frame_p95_ms_${suffix}`] = round(
          percentile(
            keys.single.map((k) => k.afterFrame),
            95,
          ),
          1,
        );
        figures[`search_burst_key_to_next_frame_median_ms_${suffix}`] = round(percentile(burst, 50), 1);
        figures[`search_burst_key_to_next_frame_p95_ms_${suffix}`] = round(percentile(burst, 95), 1);
        figures[`search_keys_timed_${suffix}`] = keys.single.length + keys.burst.length;
      }
    } finally {
      await page.close();
    }
    return figures;
  } finally {
    await desk?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const libraryScreenSection: Section = {
  name: 'library screen (browser mode, Chromium)',
  async run() {
    const started = performance.now();
    const step = (what: string) =>
      process.stderr.write(`\n  [${((performance.now() - started) / 1000).toFixed(1)} s] ${what}`);
    await buildIfStale(root, (line) => process.stdout.write(`\n  ${line}\n`));
    const browser = await launchChromium();
    let stack: Stack | null = null;
    try {
      stack = await startBenchStack({ buyerCount: 1 });
      const figures: Figures = {};
      for (const reports of SIZES) Object.assign(figures, await measureSize(browser, stack, reports, step));
      step('done\n');
      const delta = (key: string) =>
        round(Number(figures[`${key}_100k`]) - Number(figures[`${key}_empty`]), 1);
      figures.window_rss_delta_mb_100k_vs_empty = delta('window_rss_mb');
      figures.desk_rss_delta_mb_100k_vs_empty = delta('desk_rss_mb');
      return figures;
    } finally {
      await browser.close();
      await stack?.stop();
    }
  },
};
