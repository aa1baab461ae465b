/**
 * In-page timestamps (performance.now(), ms since navigation start), installed before the app loads: when the
 * first shelf row appears, every keydown, and every change of the shelf count text, with the end of the next
 * frame after it (requestAnimationFrame, then a task: the frame has been painted by then).
 */
import type { Page } from 'playwright-core';

export interface CountChange {
  text: string | null;
  at: number;
  framed: number | null;
}

const PROBE = `(() => {
  const bench = { firstRow: null, keydowns: [], changes: [], keyFrames: [], click: null, libraryShown: null };
  window.__bench = bench;
  addEventListener('click', () => { bench.click = performance.now(); bench.libraryShown = null; }, true);
  addEventListener('keydown', () => {
    const at = performance.now();
    bench.keydowns.push(at);
    // The frame after the key: the app handles the key (and its input event) in this task, before it.
    const key = { at, framed: null };
    bench.keyFrames.push(key);
    requestAnimationFrame(() => setTimeout(() => { key.framed = performance.now(); }, 0));
  }, true);
  let last;
  new MutationObserver(() => {
    const now = performance.now();
    if (bench.firstRow === null && document.querySelector('.shelf-row')) bench.firstRow = now;
    if (bench.click !== null && bench.libraryShown === null) {
      const main = document.querySelector('.library-main');
      if (main && (main.querySelector('tbody tr') || main.textContent.includes('Nothing owned yet.')))
        bench.libraryShown = now;
    }
    const count = document.querySelector('[data-testid="shelf-count"]');
    const text = count ? count.textContent : null;
    if (text === last) return;
    last = text;
    const change = { text, at: now, framed: null };
    bench.changes.push(change);
    requestAnimationFrame(() => setTimeout(() => { change.framed = performance.now(); }, 0));
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();`;

export async function installProbe(page: Page): Promise<void> {
  await page.addInitScript({ content: PROBE });
}

export interface FirstRow {
  /** Navigation start to the first .shelf-row in the DOM. */
  rowAt: number | null;
  /**
   * The shelf.summary RPC that brings the first page, request start to response end (core asking the service,
   * and the answer).
   */
  shelfRpcMs: number | null;
}

export function firstRow(page: Page): Promise<FirstRow> {
  return page.evaluate<FirstRow>(`({
    rowAt: window.__bench.firstRow,
    shelfRpcMs: (() => {
      const entry = performance.getEntriesByType('resource').find((e) => e.name.includes('/rpc/shelf.summary'));
      return entry ? entry.responseEnd - entry.startTime : null;
    })(),
  })`);
}

/** The last click in the page to the Library's first row (or its empty message) in the DOM, seen in the page. */
export function clickToLibraryShown(page: Page): Promise<number | null> {
  return page.evaluate<number | null>(
    '(() => { const b = window.__bench; return b.click !== null && b.libraryShown !== null ? b.libraryShown - b.click : null; })()',
  );
}

export function resetProbe(page: Page): Promise<void> {
  return page.evaluate<void>(
    'void (window.__bench.keydowns = [], window.__bench.changes = [], window.__bench.keyFrames = [])',
  );
}

/**
 * keydown to the end of the next frame, for every key since the last reset, once all have had their frame:
 * what typing feels like whatever the app does with the keys afterwards.
 */
export async function keyFrames(page: Page, keys: number): Promise<number[]> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const frames = await page.evaluate<{ at: number; framed: number | null }[]>('window.__bench.keyFrames');
    if (frames.length >= keys && frames.every((frame) => frame.framed !== null))
      return frames.map((frame) => frame.framed! - frame.at);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`${keys} keys did not all reach a frame within ${WAIT_MS} ms`);
}

export interface KeystrokeTiming {
  /** keydown to the count text changing in the DOM (React committed the filtered list). */
  updated: number;
  /** keydown to the end of the frame after that change. */
  framed: number;
}

const WAIT_MS = 20_000;
const POLL_MS = 20;

/**
 * Waits until the shelf count reads `expected` and a frame has passed, then times it from the last keydown.
 * Polls with page.evaluate (CDP, outside the page's CSP) rather than waitForFunction, which the app's
 * script-src 'self' forbids; the timestamps are taken in the page, so the polling interval does not count.
 */
export async function keystrokeTiming(page: Page, expected: string): Promise<KeystrokeTiming> {
  const wanted = JSON.stringify(expected);
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const seen = await page.evaluate<{ keydown: number | undefined; change: CountChange | undefined }>(
      `({ keydown: window.__bench.keydowns.at(-1), change: window.__bench.changes.find((c) => c.text === ${wanted} && c.framed !== null) })`,
    );
    if (seen.change && seen.change.framed !== null) {
      if (seen.keydown === undefined) throw new Error(`no keydown before "${expected}"`);
      return { updated: seen.change.at - seen.keydown, framed: seen.change.framed - seen.keydown };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`the shelf count did not read "${expected}" within ${WAIT_MS} ms`);
}
