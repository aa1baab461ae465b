/** The renderer in Chromium: first shelf paint, filter keystroke latency, and the Library screen's memory. */
import type { Browser, Page } from 'playwright-core';
import { jsHeapUsedBytes } from './chromium';
import type { DeskChild, DeskMemory } from './desk-child';
import { BURST_KEYS, countText, type Burst, type FilterQuery } from './filter-plan';
import {
  clickToLibraryCount,
  clickToLibraryShown,
  firstRow,
  installProbe,
  keyFrames,
  keystrokeTiming,
  resetProbe,
  type KeyFrame,
  type KeystrokeTiming,
} from './page-probe';

const VIEWPORT = { width: 1280, height: 860 };
const LOAD_TIMEOUT_MS = 120_000;
/** After a keystroke that leaves the count unchanged there is nothing to wait for; give the render this long. */
const SETTLE_MS = 500;

export interface ShelfPaint {
  /** page.goto called to the first .shelf-row visible, seen from Node. */
  wallMs: number;
  /** Navigation start to the first .shelf-row in the DOM, seen from the page. */
  inPageMs: number;
  /** The shelf.list RPC inside that: core fetching the shelf from the service and handing it to the page. */
  shelfRpcMs: number;
}

/** Opens the app on the Shelf in a fresh page and times its first row, seen from Node and from the page. */
export async function gotoShelf(browser: Browser, url: string): Promise<{ page: Page; paint: ShelfPaint }> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await installProbe(page);
    const start = performance.now();
    await page.goto(url, { timeout: LOAD_TIMEOUT_MS });
    await page.locator('.shelf-row').first().waitFor({ timeout: LOAD_TIMEOUT_MS });
    const wallMs = performance.now() - start;
    const seen = await firstRow(page);
    return {
      page,
      paint: { wallMs, inPageMs: seen.rowAt ?? Number.NaN, shelfRpcMs: seen.shelfRpcMs ?? Number.NaN },
    };
  } catch (error) {
    await page.close();
    throw error;
  }
}

/** Opens the app on the Shelf in a fresh page (new browser context: empty HTTP cache) and waits for a row. */
export async function openShelf(browser: Browser, url: string): Promise<Page> {
  return (await gotoShelf(browser, url)).page;
}

/** Waits until the window holds what the filter matches (shelf.haystacks), so keys are counted in the page. */
export async function waitForShelfHaystacks(page: Page): Promise<void> {
  const deadline = Date.now() + LOAD_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const done = await page.evaluate<boolean>(
      "performance.getEntriesByType('resource').some((e) => e.name.includes('/rpc/shelf.haystacks'))",
    );
    // The answer has been read; give the page the same settle time as an untimed key to parse and keep it.
    if (done) return page.waitForTimeout(SETTLE_MS);
    await page.waitForTimeout(50);
  }
  throw new Error('the shelf never asked for shelf.haystacks');
}

export async function firstShelfPaints(browser: Browser, url: string, runs: number): Promise<ShelfPaint[]> {
  const paints: ShelfPaint[] = [];
  for (let run = 0; run < runs; run++) {
    const { page, paint } = await gotoShelf(browser, url);
    paints.push(paint);
    await page.close();
  }
  return paints;
}

export interface FilterTimings {
  narrowing: KeystrokeTiming[];
  clearing: KeystrokeTiming[];
  untimedKeys: number;
}

/** Types each query into "Filter handles" key by key, then clears it; times every key that changes the count. */
export async function filterTimings(page: Page, plan: FilterQuery[], total: number): Promise<FilterTimings> {
  const timings: FilterTimings = { narrowing: [], clearing: [], untimedKeys: 0 };
  await page.keyboard.press('/');
  const focused = await page
    .getByLabel('Filter handles')
    .evaluate((input) => input === document.activeElement);
  if (!focused) throw new Error('"/" did not focus the shelf filter');
  for (const query of plan) {
    for (const { key, expected } of query.keys) {
      await resetProbe(page);
      await page.keyboard.press(key);
      if (expected === null) {
        timings.untimedKeys++;
        await page.waitForTimeout(SETTLE_MS);
      } else timings.narrowing.push(await keystrokeTiming(page, expected));
    }
    await page.keyboard.press('Control+A');
    await resetProbe(page);
    await page.keyboard.press('Backspace');
    timings.clearing.push(await keystrokeTiming(page, countText(total, total)));
  }
  return timings;
}

/** Gap between the keys of a burst: a fast typist, about 16 characters a second. */
export const BURST_KEY_GAP_MS = 60;

export interface BurstTimings {
  /** Every key of every burst: keydown to the end of the next frame. */
  keyFrames: KeyFrame[];
}

/** Types each burst into "Filter handles" back to back, then clears the filter. */
export async function burstTimings(page: Page, bursts: Burst[], total: number): Promise<BurstTimings> {
  const timings: BurstTimings = { keyFrames: [] };
  await page.getByLabel('Filter handles').focus();
  for (const burst of bursts) {
    await resetProbe(page);
    await page.keyboard.type(burst.text, { delay: BURST_KEY_GAP_MS });
    // The count of the whole burst, then every key's frame.
    await keystrokeTiming(page, burst.expected);
    timings.keyFrames.push(...(await keyFrames(page, BURST_KEYS)));
    await page.keyboard.press('Control+A');
    await resetProbe(page);
    await page.keyboard.press('Backspace');
    await keystrokeTiming(page, countText(total, total));
  }
  return timings;
}

export interface LibraryMemory {
  /** Renderer JS heap on the Library screen, after a forced GC. */
  pageHeapBytes: number;
  /** Desk process before the page opened, and after the Library screen has shown every report. */
  deskBefore: DeskMemory;
  deskAfter: DeskMemory;
  /**
   * Playwright's click on "Library" to the screen showing the library, from Node: the count of owned reports
   * and the first row. The list is virtualized, so the rows in view are all the rows there are in the DOM.
   */
  libraryMs: number;
  /** The page's click event to the end of the frame that shows both. */
  libraryPaintedMs: number;
}

export async function libraryMemory(
  browser: Browser,
  desk: DeskChild,
  reports: number,
): Promise<LibraryMemory> {
  const deskBefore = await desk.memory();
  const page = await openShelf(browser, desk.url);
  try {
    const start = performance.now();
    await page.getByRole('link', { name: 'Library', exact: true }).click();
    const shown = `${reports.toLocaleString('en-US')} reports owned`;
    const count = page.locator('[data-testid="library-count"]');
    if (reports > 0) {
      await count.filter({ hasText: shown }).waitFor({ timeout: LOAD_TIMEOUT_MS });
      await page
        .locator('[data-testid="library-items"] tbody tr')
        .first()
        .waitFor({ state: 'attached', timeout: LOAD_TIMEOUT_MS });
    } else await page.getByText('Nothing owned yet.').waitFor({ timeout: LOAD_TIMEOUT_MS });
    const libraryMs = performance.now() - start;
    const said = reports > 0 ? await count.textContent() : shown;
    if (said !== shown) throw new Error(`the Library says "${said}", not "${shown}"`);
    const rows = await clickToLibraryShown(page);
    const libraryPaintedMs =
      reports > 0 ? Math.max(rows.painted, await clickToLibraryCount(page, shown)) : rows.painted;
    const pageHeapBytes = await jsHeapUsedBytes(page);
    return { pageHeapBytes, deskBefore, deskAfter: await desk.memory(), libraryMs, libraryPaintedMs };
  } finally {
    await page.close();
  }
}
