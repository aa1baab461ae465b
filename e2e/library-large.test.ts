/**
 * A library of 10,000 owned reports in Debian's Chromium: the Library screen keeps only the rows in view in
 * the DOM, and both the scrollbar and the keyboard (End, Home, PageDown, Enter) reach and open the oldest
 * report. The desk's SQLite cache is filled directly, as purchases would fill it, before the desk opens it;
 * no service runs (every service request fails at once, as offline), because the Library never needs one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openDeskDb } from '../src/core/db/open';
import { SnapshotStore } from '../src/core/library/snapshots';
import { DEFAULT_SERVICE_URL } from '../src/core/desk/service';
import { openServiceDb } from '../src/service/store/db';
import { DEMO_SEED, seedStore } from '../src/service/store/seed';
import type { IntelReportSnapshot } from '../src/shared/wire';
import { startDeskHost, type DeskHost } from '../src/host/desk-host';
import { startFlakyProxy, type FlakyProxy } from '../test/core/flaky-proxy';
import { dateTime, day } from '../src/renderer/format';
import { launchChromium, shot } from './browser';

const root = path.resolve(__dirname, '..');
const REPORTS = 10_000;
const PER_HANDLE = 25;
/** Far more than a screenful (about 20 rows at 860 px) plus overscan, far fewer than the library. */
const MAX_ROWS_IN_DOM = 100;
const STORED_AT = '2026-11-22T00:00:00.000Z';

interface Owned {
  handle: string;
  snapshot: IntelReportSnapshot;
  raw: string;
}

let dataDir: string;
let desk: DeskHost | undefined;
let offline: FlakyProxy | undefined;
let browser: Browser | undefined;
let page: Page;
let oldest: Owned;
let newest: Owned;
let allHandles: string[];

/** 10,000 compact reports from the reference service's deterministic seed, 25 per handle. */
function corpus(): Owned[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'desk-e2e-corpus-'));
  const db = openServiceDb(path.join(dir, 'corpus.db'));
  try {
    seedStore(db, {
      ...DEMO_SEED,
      handles: REPORTS / PER_HANDLE,
      minReportsPerHandle: PER_HANDLE,
      maxReportsPerHandle: PER_HANDLE,
      compact: true,
      seed: 7,
    });
    return db
      .prepare<[], { handle_key: string; body_json: string }>('SELECT handle_key, body_json FROM reports')
      .all()
      .map((row) => ({
        handle: row.handle_key,
        raw: row.body_json,
        snapshot: JSON.parse(row.body_json) as IntelReportSnapshot,
      }));
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Puts every report into the desk's own cache with core's SnapshotStore, in one transaction. */
function fillCache(owned: Owned[]): void {
  const { db } = openDeskDb(path.join(dataDir, 'desk.db'));
  try {
    const store = new SnapshotStore(db);
    db.transaction(() => {
      for (const { handle, snapshot, raw } of owned)
        store.put(DEFAULT_SERVICE_URL, handle, [{ snapshot, raw }], null, STORED_AT);
    })();
  } finally {
    db.close();
  }
}

const rows = () => page.locator('[data-testid="library-items"] tbody tr');
const table = () => page.getByRole('grid', { name: 'Owned reports' });

async function openLibrary(): Promise<void> {
  await page.getByRole('link', { name: 'Library', exact: true }).click();
  await page.locator('[data-testid="library-count"]').waitFor();
  await rows().first().waitFor();
}

/** The row of the oldest report: the last of the list, newest first. */
async function expectOldestRow(): Promise<void> {
  const last = page.locator(`#library-row-${REPORTS - 1}`);
  await last.waitFor();
  expect(await last.getAttribute('aria-rowindex')).toBe(String(REPORTS + 1));
  const cells = await last.locator('td').allTextContents();
  expect(cells.slice(0, 2)).toEqual([`@${oldest.handle}`, day(oldest.snapshot.createdAt)]);
  expect(await rows().count()).toBeLessThan(MAX_ROWS_IN_DOM);
}

async function expectReportOpened(report: Owned): Promise<void> {
  await page.locator('#report-title', { hasText: dateTime(report.snapshot.createdAt) }).waitFor();
}

beforeAll(async () => {
  const owned = corpus();
  expect(owned).toHaveLength(REPORTS);
  allHandles = owned.map((report) => report.handle);
  const byAge = [...owned].sort((a, b) => a.snapshot.createdAt.localeCompare(b.snapshot.createdAt));
  oldest = byAge[0]!;
  newest = byAge[byAge.length - 1]!;
  // The oldest must be alone at its time, so the last row is that report (the newest time is shared).
  expect(byAge[1]!.snapshot.createdAt).not.toBe(oldest.snapshot.createdAt);
  dataDir = mkdtempSync(path.join(tmpdir(), 'desk-e2e-library-large-'));
  fillCache(owned);
  // A loopback port that refuses every connection: the service is down, as offline as it gets.
  offline = await startFlakyProxy('http://127.0.0.1:1');
  offline.down();
  desk = await startDeskHost({
    core: { dataDir, serviceUrl: offline.url, attempts: 1 },
    rendererDir: path.join(root, 'out', 'renderer'),
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(desk.host.url);
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  await offline?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a library of 10,000 owned reports', () => {
  it('says how many it holds and puts only the rows in view into the DOM', async () => {
    // The list crosses from core a page at a time: the first answer holds one page, not the library.
    const firstPage = page.waitForResponse((response) => response.url().includes('/rpc/library.list'));
    await openLibrary();
    const answer = (await (await firstPage).json()) as {
      value: { items: unknown[]; total: number; nextCursor: string | null };
    };
    expect(answer.value.items.length).toBeLessThanOrEqual(200);
    expect(answer.value.total).toBe(REPORTS);
    expect(answer.value.nextCursor).not.toBeNull();
    expect(await page.locator('[data-testid="library-spent"]').textContent()).toBe('$0.00 spent');
    expect(await page.locator('[data-testid="library-count"]').textContent()).toBe('10,000 reports owned');
    const shown = await rows().count();
    expect(shown).toBeGreaterThan(5);
    expect(shown).toBeLessThan(MAX_ROWS_IN_DOM);
    expect(await table().getAttribute('aria-rowcount')).toBe(String(REPORTS + 1));
    const first = await rows().first().locator('td').allTextContents();
    expect(first[1]).toBe(day(newest.snapshot.createdAt));
    await shot(page, 'library-10k');
  });

  it('scrolls to the oldest report and opens it with a click', async () => {
    await openLibrary();
    await table().evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expectOldestRow();
    await shot(page, 'library-10k-bottom');
    await page.locator(`#library-row-${REPORTS - 1} button`).click();
    await expectReportOpened(oldest);
  });

  it('reaches the oldest report with End and opens it with Enter, keyboard only', async () => {
    // A new window: the pages the scrollbar test read are not held.
    await page.reload();
    await openLibrary();
    await page.keyboard.press('/');
    const search = page.getByLabel('Search owned reports');
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await table().evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await table().getAttribute('aria-activedescendant')).toBe('library-row-0');

    // End asks for the last page by its place, not for every page before it in a row.
    const asked: string[] = [];
    const count = (request: { url(): string }) => {
      if (request.url().includes('/rpc/library.list')) asked.push(request.url());
    };
    page.on('request', count);
    await page.keyboard.press('End');
    await expectOldestRow();
    page.off('request', count);
    expect(asked.length).toBeLessThanOrEqual(2);
    expect(await table().getAttribute('aria-activedescendant')).toBe(`library-row-${REPORTS - 1}`);
    expect(await page.locator(`#library-row-${REPORTS - 1}`).getAttribute('aria-selected')).toBe('true');

    await page.keyboard.press('Home');
    await page.locator('#library-row-0[aria-selected="true"]').waitFor();
    await page.keyboard.press('PageDown');
    const pagedRow = page.locator('[data-testid="library-items"] tbody tr[aria-selected="true"]');
    await pagedRow.and(page.locator(':not(#library-row-0)')).waitFor();
    const paged = Number((await pagedRow.getAttribute('id'))?.replace('library-row-', ''));
    expect(paged).toBeGreaterThan(5);
    await page.keyboard.press('ArrowDown');
    await page.locator(`#library-row-${paged + 1}[aria-selected="true"]`).waitFor();
    await page.keyboard.press('ArrowUp');
    await page.locator(`#library-row-${paged}[aria-selected="true"]`).waitFor();

    await page.keyboard.press('End');
    await expectOldestRow();
    await page.keyboard.press('Enter');
    await expectReportOpened(oldest);
  });

  it('sorts by a column header, A to Z and back', async () => {
    await openLibrary();
    const firstHandle = async () => (await rows().first().locator('td').first().textContent()) ?? '';
    const handles = [...new Set(allHandles)].sort();
    await page.getByRole('button', { name: 'Handle', exact: true }).click();
    await page
      .getByRole('columnheader', { name: /Handle/ })
      .and(page.locator('[aria-sort="ascending"]'))
      .waitFor();
    await expect.poll(firstHandle).toBe(`@${handles[0]}`);
    await page.getByRole('button', { name: /^Handle/ }).click();
    await page
      .getByRole('columnheader', { name: /Handle/ })
      .and(page.locator('[aria-sort="descending"]'))
      .waitFor();
    await expect.poll(firstHandle).toBe(`@${handles.at(-1)}`);
    await page.getByRole('button', { name: 'Date', exact: true }).click();
    await expect
      .poll(async () => (await rows().first().locator('td').allTextContents())[1])
      .toBe(day(newest.snapshot.createdAt));
  });

  it('narrows to one handle and still counts against the whole library', async () => {
    await openLibrary();
    await page.getByLabel('Handle').selectOption(oldest.handle);
    await page
      .locator('[data-testid="library-count"]', { hasText: `${PER_HANDLE} of 10,000 reports owned` })
      .waitFor();
    expect(await rows().count()).toBeLessThanOrEqual(PER_HANDLE);
    await table().focus();
    await page.keyboard.press('End');
    await page.locator(`#library-row-${PER_HANDLE - 1}[aria-selected="true"]`).waitFor();
    await page.keyboard.press('Enter');
    await expectReportOpened(oldest);
  });
});
