/**
 * Issue 6: a hostile service. A rewriting proxy in front of the real reference service puts a corpus of
 * hostile strings (and a 1 MB one) in handles, display names, avatars, affiliations, model labels, narrative
 * sections, analytics labels, change summaries and error bodies. The reports are bought through the real
 * flow (quote, confirm, pay with the demo wallet) so the poisoned snapshots land in the real SQLite cache.
 * Then every screen is visited in a Chromium that can reach loopback only, and the test proves: no payload
 * ran, nothing outside the desk's origin was requested (the canary saw nothing), no hostile markup reached
 * the DOM as markup, and every screen still rendered its heading, 1 MB string included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack } from '../src/service/stack';
import { startDeskHost, type DeskHost } from '../src/host/desk-host';
import { shelfListSchema } from '../src/shared/wire';
import { privateKeyToAccount } from 'viem/accounts';
import { balanceOf, ledgerRows, storedSnapshots } from '../test/core/helpers';
import { launchLoopbackOnlyChromium } from './browser';
import { hostileStrings, hostileUrls, hugeString, ONE_MB, type HostileString } from './hostile-strings';
import { startCanary, startHostileService, type Canary, type Listening } from './hostile-service';
import {
  armTrap,
  auditDom,
  foreignRequests,
  trapState,
  viewShot,
  watchPage,
  type Watch,
} from './hostile-page';

const root = path.resolve(__dirname, '..');
const PASSPHRASE = 'hostile e2e passphrase';
const ERROR_HANDLE = 'hostile_error_handle';
const TARGET_NAME = '\u2067@trusted_handle\u2069 \u202E never closed';

let canary: Canary | null = null;
let stack: Stack | null = null;
let hostile: Listening | null = null;
let desk: DeskHost | null = null;
let browser: Browser | null = null;
let context: BrowserContext;
let page: Page;
let watch: Watch;
let dataDir: string;
let corpus: HostileString[];
let huge: string;
let target: string;
let hugeNameHandle: string;
let shelfSize: number;
/** Places where a bidi override in hostile text flipped the text after it on screen. */
const bidiLeaks: string[] = [];

beforeAll(async () => {
  canary = await startCanary();
  corpus = hostileStrings(canary.origin);
  huge = hugeString(canary.origin);
  stack = await startStack({ seed: { handles: 3, minReportsPerHandle: 3, maxReportsPerHandle: 3 } });
  const upstream = shelfListSchema.parse(await (await fetch(`${stack.baseUrl}/api/intel/list`)).json());
  [target, hugeNameHandle] = upstream.entries.map((e) => e.username) as [string, string];
  shelfSize = upstream.entries.length + corpus.length + 1;
  hostile = await startHostileService(stack.baseUrl, {
    corpus,
    huge,
    urls: hostileUrls(canary.origin),
    target,
    targetDisplayName: TARGET_NAME,
    newestModel: 'gpt \u202Eevil model',
    hugeNameHandle,
    errorHandle: ERROR_HANDLE,
  });
  dataDir = mkdtempSync(path.join(tmpdir(), 'desk-e2e-hostile-'));
  desk = await startDeskHost({
    core: {
      dataDir,
      serviceUrl: hostile.origin,
      rpcUrl: stack.rpcUrl,
      demo: true,
      demoAsset: stack.asset,
      attempts: 1,
    },
    rendererDir: path.join(root, 'out', 'renderer'),
  });
  browser = await launchLoopbackOnlyChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  watch = await armTrap(context);
  page = await context.newPage();
  watchPage(page, watch);
  await page.goto(desk.host.url);
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  await hostile?.close();
  await stack?.stop();
  await canary?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The screen's heading is visible, nothing fired, no dangerous markup is in the DOM; then a screenshot. */
async function checkScreen(heading: string, name: string): Promise<void> {
  await page.locator(heading).first().waitFor();
  expect(await page.locator(heading).first().isVisible()).toBe(true);
  expect(await trapState(page)).toEqual({ pwned: [], violations: [] });
  expect(await auditDom(page)).toEqual([]);
  await viewShot(page, name);
}

async function nav(label: string): Promise<void> {
  await page.getByRole('link', { name: label, exact: true }).click();
}

/** Filters the shelf down to rows whose handle or name holds `needle`, and opens the row of `username`. */
async function openRow(needle: string, username: string): Promise<void> {
  await nav('Shelf');
  await page.getByLabel('Filter handles').fill(needle);
  const rows = page.locator('.shelf-row');
  await rows.first().waitFor();
  const index = await rows.evaluateAll(
    (els, want) => els.findIndex((el) => el.querySelector('.shelf-name .muted')?.textContent === `@${want}`),
    username,
  );
  expect(index).toBeGreaterThanOrEqual(0);
  await rows.nth(index).click();
  await page.locator('#menu-title').waitFor();
}

/**
 * Whether `word`, a text node inside `selector`, runs left to right on screen: a bidi override leaking from
 * the text before it would put its last character left of its first.
 */
async function readsLeftToRight(selector: string, word: string): Promise<boolean> {
  return page.locator(selector).evaluate((el, needle) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = (node.textContent ?? '').indexOf(needle);
      if (at < 0) continue;
      const left = (i: number) => {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        return range.getBoundingClientRect().left;
      };
      return left(at) < left(at + needle.length - 1);
    }
    throw new Error(`"${needle}" is not in ${el.tagName}`);
  }, word);
}

/** The shelf's row height (ROW_HEIGHT in Shelf.tsx). */
const ROW_HEIGHT = 56;

// Order: one visit through the app, in steps that depend on each other by design: the wallet imported in
// Settings pays for the hostile reports through the real flow, the reports bought are the poisoned library
// the later steps read, list and search, and the last step checks the traps over the whole visit. Buying
// through the UI in each step would repeat the journey the file is about.
describe('a hostile service', () => {
  it('shows every hostile shelf entry as plain text, the 1 MB name included', async () => {
    await page.locator('.shelf-row').first().waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="shelf-count"]', { hasText: `${shelfSize} of ${shelfSize}` }).waitFor();
    await checkScreen('h1#shelf-title', 'shelf');
    // Scroll the virtualized list from top to bottom so every row is rendered once, and read what it showed.
    const list = page.getByRole('listbox', { name: 'Handles' });
    const seen = new Set<string>();
    for (let row = 0; row < shelfSize; row += 8) {
      // The shelf scrolls with the page (a window virtualizer): scroll the window to the row's place in the list.
      await list.evaluate(
        (el, top) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY + top),
        row * ROW_HEIGHT,
      );
      await page.locator(`#shelf-${row}`).waitFor();
      const shown = await page.locator('.shelf-name .muted').allTextContents();
      shown.forEach((text) => seen.add(text));
      expect(await auditDom(page)).toEqual([]);
    }
    const missing = corpus.filter((h) => !seen.has(`@${h.text}`)).map((h) => h.id);
    expect(missing).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await trapState(page)).toEqual({ pwned: [], violations: [] });
  });

  it('keeps the filter responsive with the 1 MB name on the shelf', async () => {
    await page.getByLabel('Filter handles').fill('hugemarker');
    await page.locator('[data-testid="shelf-count"]', { hasText: `1 of ${shelfSize}` }).waitFor();
    const name = await page.locator('.shelf-row .shelf-name strong > bdi').first().textContent();
    expect(name?.length).toBe(huge.length);
    await viewShot(page, 'shelf-huge-name');
    await page.getByLabel('Filter handles').fill('');
  });

  it('refuses a row whose handle is not a handle, with a clear message and no crash', async () => {
    const script = corpus.find((h) => h.id === 'script-tag-01')!;
    await openRow("s01')", script.text);
    await page.getByRole('alert').filter({ hasText: 'is not a handle' }).waitFor();
    expect(await page.getByRole('alert').first().textContent()).toContain(script.text);
    await checkScreen('#menu-title', 'invalid-handle');
  });

  it('shows a hostile error body from the service as text', async () => {
    await openRow(ERROR_HANDLE, ERROR_HANDLE);
    const message = corpus.find((h) => h.id === 'event-handler-01')!.text;
    await page.getByRole('alert').filter({ hasText: 'The service refused the request' }).waitFor();
    expect(await page.getByRole('alert').first().textContent()).toContain(message);
    await checkScreen('#menu-title', 'error-body');
  });

  it('imports the demo wallet in Settings', async () => {
    await nav('Settings');
    await page.getByRole('textbox', { name: 'Private key' }).fill(stack!.buyerKeys[0]!);
    await page.getByLabel('New passphrase').fill(PASSPHRASE);
    await page.getByRole('button', { name: 'Import wallet' }).click();
    await page.getByText('Wallet imported and unlocked.').waitFor();
    await checkScreen('h1:text-is("Settings")', 'settings');
  });

  it('opens the menu of the handle whose name is 1 MB', async () => {
    await openRow(hugeNameHandle, hugeNameHandle);
    await page.locator('table[aria-label="Reports"] tbody tr').first().waitFor({ timeout: 30_000 });
    expect((await page.locator('#menu-title').textContent())?.length).toBeGreaterThan(ONE_MB / 2);
    await checkScreen('#menu-title', 'menu-huge-name');
  });

  it('buys every report of a hostile handle through quote, confirm and pay', async () => {
    await openRow(target, target);
    const rows = page.locator('table[aria-label="Reports"] tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(3);
    const models = await rows.locator('td:nth-child(3)').allTextContents();
    expect(models).toEqual([0, 5, 10].map((i) => corpus[i]!.text));
    if (!(await readsLeftToRight('#menu-title', target))) bidiLeaks.push('menu heading (Menu.tsx)');
    await checkScreen('#menu-title', 'menu');
    await page.locator('[data-testid="price"]', { hasText: '$0.03' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Buy 3 reports for $0.03' }).click();
    await page.locator('[data-testid="confirm-amount"]', { hasText: '$0.03' }).waitFor();
    await checkScreen('[data-testid="confirm-amount"]', 'purchase-confirm');
    const payer = privateKeyToAccount(stack!.buyerKeys[0]!).address;
    const before = await balanceOf(stack!, payer);
    await page.getByRole('button', { name: 'Pay $0.03' }).click();
    const outcome = page.locator('[data-testid="purchase-outcome"]');
    await outcome.waitFor({ timeout: 30_000 });
    expect(await outcome.textContent()).toContain('Bought 3 reports for $0.03');
    await checkScreen('[data-testid="purchase-outcome"]', 'purchase');
    // On chain, exactly the quoted $0.03 left the buyer; the ledger and the library say the same.
    expect(await balanceOf(stack!, payer)).toBe(before - 30_000n);
    const ledger = ledgerRows(dataDir);
    expect(ledger).toHaveLength(1);
    const [row] = ledger;
    expect(row).toMatchObject({
      state: 'completed',
      amount: '30000',
      handle: target,
      payer,
      service_url: hostile!.origin,
      pay_to: stack!.payTo,
    });
    // The three reports stored are the target's, under this purchase, whatever names the service gave them.
    const menu = (await (await fetch(`${stack!.baseUrl}/api/intel/reports?username=${target}`)).json()) as {
      reports: { id: string }[];
    };
    const stored = storedSnapshots(dataDir);
    expect(stored.map((s) => s.id).sort()).toEqual(menu.reports.map((r) => r.id).sort());
    for (const snapshot of stored) {
      expect(snapshot).toMatchObject({ purchase_id: row!.id, service_url: hostile!.origin });
      expect(snapshot.handle.toLowerCase()).toBe(target.toLowerCase());
    }
  });

  it('reads the poisoned report: narrative, change summary and charts, 1 MB section included', async () => {
    await page.getByRole('button', { name: 'Read now' }).click();
    await page.locator('#report-title').waitFor({ timeout: 30_000 });
    await checkScreen('#report-title', 'report');
    await page.locator('article.report > p.muted', { hasText: 'evil model' }).waitFor();
    if (!(await readsLeftToRight('article.report > p.muted', 'posts')))
      bidiLeaks.push('report line (Report.tsx)');
    // A changeSummary 3000 levels deep used to crash the renderer process; now it is cut off, visibly.
    await page.locator('[data-testid="too-deep"]').first().waitFor();
    // Every single-line corpus string is a paragraph of its own section, shown exactly as its text.
    const plain = corpus.filter((h) => !/[*\n\r\u2028\u2029]/.test(h.text)).map((h) => h.text);
    const absent = await page.evaluate((texts) => {
      const shown = new Set([...document.querySelectorAll('.narrative-section p')].map((p) => p.textContent));
      return texts.filter((t) => !shown.has(t));
    }, plain);
    expect(absent).toEqual([]);
    expect(await page.locator('.narrative-section h3').count()).toBeGreaterThan(corpus.length);
    const hugeShown = await page
      .locator('.narrative-section', { has: page.locator('h3', { hasText: /^Huge section$/ }) })
      .evaluate((el) => el.textContent?.length ?? 0);
    expect(hugeShown).toBeGreaterThan(huge.length * 0.9);
    expect(
      await page.locator('section[aria-label="Analytics"] .chart-box svg.recharts-surface').count(),
    ).toBeGreaterThan(3);
    await page.locator('section.change').scrollIntoViewIfNeeded();
    await checkScreen('section.change', 'report-change-summary');
    await page.locator('section[aria-label="Analytics"]').scrollIntoViewIfNeeded();
    await checkScreen('section[aria-label="Analytics"] h2', 'report-charts');
    await page.getByRole('button', { name: '← Older' }).click();
    await page.locator('#report-title').waitFor();
    await checkScreen('#report-title', 'report-older');
  });

  it('lists and searches the poisoned library', async () => {
    await nav('Library');
    const rows = page.locator('[data-testid="library-items"] tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(3);
    await checkScreen('h1#library-title', 'library');
    await page.getByLabel('Search owned reports').fill('pwned');
    await page.locator('[data-testid="search-hits"] li').first().waitFor();
    expect(await page.locator('[data-testid="search-hits"] li').count()).toBe(3);
    await checkScreen('h1#library-title', 'library-search');
    // Only the newest report holds the 1 MB string; FTS syntax typed around the word is not FTS syntax.
    await page.getByLabel('Search owned reports').fill('"hugemarker*');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="search-hits"] li').length === 1,
    );
    await checkScreen('[data-testid="search-hits"] mark', 'library-search-huge');
    await page.getByLabel('Search owned reports').fill('');
  });

  it('lists the purchase', async () => {
    await nav('Purchases');
    await page.locator('.pill-completed').waitFor();
    await checkScreen('h1#purchases-title', 'purchases');
  });

  // Hostile text sits in <bdi>: a never-closed U+202E must not flip the trusted text after it.
  it('keeps bidi overrides inside their own text on every screen', async () => {
    await nav('Shelf');
    await page.getByLabel('Filter handles').fill(target);
    await page.locator('.shelf-row').first().waitFor();
    expect(await readsLeftToRight('.shelf-row .shelf-name', target)).toBe(true);
    expect(bidiLeaks).toEqual([]);
  });

  it('ran nothing, asked nothing remote, opened nothing, and the app threw nothing', async () => {
    expect(await trapState(page)).toEqual({ pwned: [], violations: [] });
    expect(watch.dialogs).toEqual([]);
    expect(watch.popups).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    expect(canary!.hits).toEqual([]);
    expect(watch.requests.length).toBeGreaterThan(20);
    expect(foreignRequests(watch, new URL(desk!.host.url).origin)).toEqual([]);
  });
});
