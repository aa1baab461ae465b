/**
 * In-page timestamps (performance.now(), ms since navigation start), installed before the app loads: when the
 * first shelf row appears, every keydown, and every change of the shelf count text, each with the end of the
 * next frame after it. The frame's end is a user-blocking task posted from its requestAnimationFrame callback:
 * the scheduler runs it right after the frame's style, layout, paint and commit (within 0.4 ms median of the
 * end of Chromium's BeginMainFrame in a trace, docs/decisions/0036). The first task of any priority after the
 * frame (a timeout) is kept too: it also waits for whatever the page queued meanwhile, such as a transition's
 * render, and so overstates the frame by 1 to 4 ms.
 */
import type { Page } from 'playwright-core';

/** keydown to the end of the next frame, and to the first task after it. */
export interface KeyFrame {
  framed: number;
  afterFrame: number;
}

const PROBE = `(() => {
  const afterNextFrame = (stamp) => requestAnimationFrame(() => {
    scheduler.postTask(() => { stamp.framed = performance.now(); }, { priority: 'user-blocking' });
    setTimeout(() => { stamp.after = performance.now(); }, 0);
  });
  const bench = {
    firstRow: null, keydowns: [], changes: [], keyFrames: [], click: null, libraryShown: null, libraryCounts: [],
  };
  window.__bench = bench;
  addEventListener('click', () => {
    bench.click = performance.now();
    bench.libraryShown = null;
    bench.libraryCounts = [];
  }, true);
  addEventListener('keydown', () => {
    const at = performance.now();
    bench.keydowns.push(at);
    // The frame after the key: the app handles the key (and its input event) in this task, before it.
    const key = { at, framed: null, after: null };
    bench.keyFrames.push(key);
    afterNextFrame(key);
  }, true);
  let last;
  let lastLibraryCount = null;
  new MutationObserver(() => {
    const now = performance.now();
    if (bench.firstRow === null && document.querySelector('.shelf-row')) bench.firstRow = now;
    if (bench.click !== null && bench.libraryShown === null) {
      const main = document.querySelector('.library-main');
      if (main && (main.querySelector('tbody tr') || main.textContent.includes('Nothing owned yet.'))) {
        bench.libraryShown = { at: now, framed: null, after: null };
        afterNextFrame(bench.libraryShown);
      }
    }
    const owned = document.querySelector('[data-testid="library-count"]');
    const ownedText = owned ? owned.textContent : null;
    if (bench.click !== null && ownedText !== lastLibraryCount) {
      lastLibraryCount = ownedText;
      const change = { text: ownedText, at: now, framed: null, after: null };
      bench.libraryCounts.push(change);
      afterNextFrame(change);
    }
    const count = document.querySelector('[data-testid="shelf-count"]');
    const text = count ? count.textContent : null;
    if (text === last) return;
    last = text;
    const change = { text, at: now, framed: null, after: null };
    bench.changes.push(change);
    afterNextFrame(change);
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

export interface LibraryShown {
  /** The page's click event to the Library's first row (or its empty message) in the DOM. */
  inDom: number;
  /** The same to the end of the frame that shows it. */
  painted: number;
}

const WAIT_MS = 20_000;
const POLL_MS = 20;

/**
 * Polls the page until `read` gives a value, or throws after WAIT_MS. With page.evaluate (CDP, outside the
 * page's CSP) rather than waitForFunction, which the app's script-src 'self' forbids.
 */
async function pollPage<T>(page: Page, read: string, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const value = await page.evaluate<T | null>(read);
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`${what} within ${WAIT_MS} ms`);
}

/** The last click in the page to the Library's first row (or its empty message), seen in the page. */
export function clickToLibraryShown(page: Page): Promise<LibraryShown> {
  return pollPage<LibraryShown>(
    page,
    `(() => {
      const b = window.__bench, shown = b.libraryShown;
      if (b.click === null || shown === null || shown.framed === null) return null;
      return { inDom: shown.at - b.click, painted: shown.framed - b.click };
    })()`,
    'the Library did not show its first rows after the click',
  );
}

/** The last click in the page to the end of the frame that shows the Library's count reading `text`. */
export function clickToLibraryCount(page: Page, text: string): Promise<number> {
  return pollPage<number>(
    page,
    `(() => {
      const b = window.__bench;
      const change = b.libraryCounts.find((c) => c.text === ${JSON.stringify(text)} && c.framed !== null);
      return b.click !== null && change ? change.framed - b.click : null;
    })()`,
    `the Library's count did not read "${text}" after the click`,
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
export function keyFrames(page: Page, keys: number): Promise<KeyFrame[]> {
  return pollPage<KeyFrame[]>(
    page,
    `(() => {
      const frames = window.__bench.keyFrames;
      if (frames.length < ${keys} || frames.some((f) => f.framed === null || f.after === null)) return null;
      return frames.map((f) => ({ framed: f.framed - f.at, afterFrame: f.after - f.at }));
    })()`,
    `${keys} keys did not all reach a frame`,
  );
}

export interface KeystrokeTiming {
  /** keydown to the count text changing in the DOM (React committed the filtered list). */
  updated: number;
  /** keydown to the end of the frame after that change. */
  framed: number;
  /** keydown to the first task after that frame. */
  afterFrame: number;
}

/**
 * Waits until the shelf count reads `expected` and a frame has passed, then times it from the last keydown.
 * The timestamps are taken in the page, so the polling interval does not count.
 */
export function keystrokeTiming(page: Page, expected: string): Promise<KeystrokeTiming> {
  return pollPage<KeystrokeTiming>(
    page,
    `(() => {
      const b = window.__bench, keydown = b.keydowns.at(-1);
      const change = b.changes.find((c) => c.text === ${JSON.stringify(expected)} && c.framed !== null && c.after !== null);
      if (!change) return null;
      if (keydown === undefined) throw new Error('no keydown before the count changed');
      return { updated: change.at - keydown, framed: change.framed - keydown, afterFrame: change.after - keydown };
    })()`,
    `the shelf count did not read "${expected}"`,
  );
}
