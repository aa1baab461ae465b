/**
 * The new user's journey, one spec for both modes: browse the shelf, open a menu, see the live price, import
 * the demo wallet, buy a date range, read, search, read the rest with the library secret, go offline, restart
 * and find everything, and never let a secret reach the page. A driver says how the desk is opened: the web
 * host in Debian's Chromium, or the Electron window.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startStack, type Stack } from '../src/service/stack';
import { reportMenuSchema, shelfListSchema, type ReportMenu, type ShelfList } from '../src/shared/wire';
import { privateKeyToAccount } from 'viem/accounts';
import { balanceOf, ledgerRows, storedSnapshots } from '../test/core/helpers';
import { dateTime } from '../src/renderer/format';
import { pageState, shot } from './browser';
import { buy, filterAndOpen, openShelf, searchLibrary, waitForPrice } from './flow';

export const PASSPHRASE = 'e2e wallet passphrase';
export const LIBRARY_SECRET = 'e2e-library-secret-7f3c9a1d5b';

export interface DeskUnderTest {
  page: Page;
  /** Bodies of the RPC answers the page received, where the transport shows them (HTTP); null over IPC. */
  rpcBodies(): Promise<string[]> | null;
  close(): Promise<void>;
}

export interface DeskDriver {
  /** Screenshot name prefix, so both modes keep their own artifacts. */
  name: string;
  /** Whether a download reaches the test (browser); Electron asks the person where to save instead. */
  downloads: boolean;
  open(options: {
    dataDir: string;
    serviceUrl: string;
    rpcUrl: string;
    demoAsset: `0x${string}`;
  }): Promise<DeskUnderTest>;
  /** Releases what open() shared between runs (a browser). */
  dispose?(): Promise<void>;
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

export function newUserJourney(driver: () => DeskDriver): void {
  let stack: Stack | null = null;
  let desk: DeskUnderTest | null = null;
  let dataDir = '';
  let serviceUrl = '';
  let rpcUrl = '';
  let demoAsset: `0x${string}` = '0x';
  let handle = '';
  let shelf: ShelfList;
  let menu: ReportMenu;
  let buyerKey = '';
  const rpcBodies: string[] = [];
  const pageStates: string[] = [];
  const page = (): Page => desk!.page;
  const snap = (name: string) => shot(page(), `${driver().name}-${name}`);

  async function closeDesk(): Promise<void> {
    if (!desk) return;
    rpcBodies.push(...((await desk.rpcBodies()) ?? []));
    await desk.close();
    desk = null;
  }

  beforeAll(async () => {
    stack = await startStack({
      seed: { handles: 12, minReportsPerHandle: 4, maxReportsPerHandle: 8 },
      librarySecret: LIBRARY_SECRET,
    });
    buyerKey = stack.buyerKeys[0]!;
    serviceUrl = stack.baseUrl;
    rpcUrl = stack.rpcUrl;
    demoAsset = stack.asset;
    dataDir = mkdtempSync(path.join(tmpdir(), 'desk-e2e-'));
    shelf = shelfListSchema.parse(await getJson(`${serviceUrl}/api/intel/list`));
    handle = shelf.entries.find((e) => (e.reportCount ?? 0) >= 4)!.username;
    menu = reportMenuSchema.parse(
      await getJson(`${serviceUrl}/api/intel/reports?username=${encodeURIComponent(handle)}`),
    );
    desk = await driver().open({ dataDir, serviceUrl, rpcUrl, demoAsset });
  });

  afterAll(async () => {
    await closeDesk();
    await driver().dispose?.();
    await stack?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the shelf with avatars, counts and a working filter', async () => {
    await page().locator('.shelf-row').first().waitFor();
    expect(await page().locator('[data-testid="shelf-count"]').textContent()).toContain('12 of 12 handles');
    expect(await page().locator('.shelf-row img.avatar').count()).toBeGreaterThan(0);
    const labelled = shelf.entries.filter((e) => e.affiliationLabel).length;
    expect(labelled).toBeGreaterThan(0);
    expect(await page().locator('.shelf-row .affiliation').count()).toBe(labelled);
    await snap('01-shelf');
    await page().keyboard.press('/');
    await page().keyboard.type('zz-no-such-handle');
    await page().getByText('No handle matches').waitFor();
    await page().getByLabel('Filter handles').fill('');
  });

  it('opens a handle menu and shows the live price of the choice', async () => {
    await filterAndOpen(page(), handle);
    const rows = page().locator('table[aria-label="Reports"] tbody tr');
    expect(await rows.count()).toBe(menu.reportCount);
    await waitForPrice(page(), `$${(menu.reportCount * 0.01).toFixed(2)}`);
    // Unticking one report re-prices the choice after the debounce.
    await rows.first().getByRole('checkbox').uncheck();
    await waitForPrice(page(), `$${((menu.reportCount - 1) * 0.01).toFixed(2)}`);
    await snap('02-menu');
    expect(await page().getByRole('button', { name: /^Buy / }).isDisabled()).toBe(true);
  });

  it('imports the demo wallet in Settings; only the address comes back', async () => {
    await page().getByRole('link', { name: 'Settings', exact: true }).click();
    await page().getByRole('textbox', { name: 'Private key' }).fill(buyerKey);
    await page().getByLabel('New passphrase').fill(PASSPHRASE);
    await page().getByRole('button', { name: 'Import wallet' }).click();
    await page().getByText('Wallet imported and unlocked.').waitFor();
    await page().locator('[data-testid="wallet-state"]', { hasText: 'unlocked' }).first().waitFor();
    expect(await page().getByRole('textbox', { name: 'Private key' }).inputValue()).toBe('');
    // No browser wallet is installed in this page, so none is offered.
    expect(
      await page()
        .getByRole('button', { name: /^Use (browser wallet|Injected)$/ })
        .count(),
    ).toBe(0);
    pageStates.push(await pageState(page()));
    await snap('03-settings');
  });

  it('buys a date range after confirming the exact amount', async () => {
    await openShelf(page());
    await filterAndOpen(page(), handle);
    await page().getByLabel('A date range').check();
    await page().getByLabel('From date').fill(menu.reports[1]!.createdAt.slice(0, 10));
    await waitForPrice(page(), '$0.02');
    // The balance of the quoted token shows beside the price (the demo buyer starts with 1000 test USDC).
    await page()
      .locator('.purchase-panel .wallet-panel', { hasText: /\d+\.\d{2} USDC on Local demo chain/ })
      .waitFor();
    const payer = privateKeyToAccount(buyerKey as `0x${string}`).address;
    const before = await balanceOf(stack!, payer);
    await buy(page(), '$0.02');
    const outcome = page().locator('[data-testid="purchase-outcome"]');
    expect(await outcome.textContent()).toContain('Bought 2 reports for $0.02');
    // The transaction is in the receipt, one click away (below), not dumped as text.
    expect(await outcome.textContent()).not.toMatch(/0x[0-9a-f]{64}/);
    // Exactly the quoted $0.02 left the buyer on chain, and the ledger and the library agree.
    expect(await balanceOf(stack!, payer)).toBe(before - 20_000n);
    const rows = ledgerRows(dataDir);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      state: 'completed',
      amount: '20000',
      handle,
      payer,
      pay_to: stack!.payTo,
      service_url: serviceUrl,
    });
    await outcome.getByRole('button', { name: 'View receipt' }).click();
    const receipt = page().getByRole('dialog', { name: `Receipt for @${handle}` });
    await expect.poll(() => receipt.textContent()).toContain(rows[0]!.tx_hash!);
    await receipt.getByRole('button', { name: 'Close' }).click();
    await receipt.waitFor({ state: 'hidden' });
    const stored = storedSnapshots(dataDir);
    expect(stored.map((s) => s.id).sort()).toEqual(
      menu.reports
        .slice(0, 2)
        .map((r) => r.id)
        .sort(),
    );
    for (const snapshot of stored) {
      expect(snapshot.purchase_id).toBe(rows[0]!.id);
      expect(snapshot.handle.toLowerCase()).toBe(handle.toLowerCase());
    }
    await page()
      .getByRole('button', { name: /^Read the report of / })
      .nth(1)
      .waitFor();
    await snap('04-purchase');
    // The result belongs to the range it bought: another choice does not show it, and going back does.
    await page()
      .getByRole('radio', { name: /^All \d+ \(/ })
      .check();
    await outcome.waitFor({ state: 'detached' });
    await page().getByLabel('A date range').check();
    await outcome.waitFor();
  });

  it('reads the report: narrative, change summary, charts, and navigation over time', async () => {
    await page().getByRole('button', { name: 'Read now' }).click();
    await page().getByRole('heading', { name: 'Summary' }).waitFor();
    expect(await page().locator('.change').textContent()).toContain('Against the report of');
    expect(
      await page().locator('section[aria-label="Analytics"] svg.recharts-surface').count(),
    ).toBeGreaterThan(1);
    expect(await page().locator('script:not([src])').count()).toBe(0);
    await snap('05-report');
    if (driver().downloads) {
      const [download] = await Promise.all([
        page().waitForEvent('download'),
        page().getByRole('button', { name: 'Export PDF' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);
      const pdf = await readFile(await download.path());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.length).toBeGreaterThan(2000);
    }
    await page().getByRole('button', { name: '← Older' }).click();
    await page()
      .locator('h1', { hasText: dateTime(menu.reports[1]!.createdAt) })
      .waitFor();
    expect(await page().getByRole('button', { name: '← Older' }).isDisabled()).toBe(true);
  });

  it('searches the library with highlighted snippets and lists the purchase', async () => {
    await searchLibrary(page(), 'posted');
    expect(await page().locator('[data-testid="search-hits"] li').count()).toBe(2);
    await snap('06-library-search');
    await page().getByRole('link', { name: 'Purchases', exact: true }).click();
    await page().locator('.pill-completed').waitFor();
    expect(await page().locator('[data-testid="daily-spend"]').textContent()).toContain('Today: $0.02');
    await snap('07-purchases');
  });

  it('after the range, quotes only the missing reports for All, says how many are owned, and rebuys only when asked', async () => {
    const rest = menu.reportCount - 2;
    await openShelf(page());
    await filterAndOpen(page(), handle);
    await waitForPrice(page(), `$${(rest * 0.01).toFixed(2)}`);
    const owned = page().locator('.purchase-panel [data-testid="owned-note"]');
    expect(await owned.textContent()).toBe(
      'You already own 2 reports of this choice; they are left out (buying them again would cost $0.02).',
    );
    await page()
      .getByRole('button', { name: `Buy ${rest} reports for $${(rest * 0.01).toFixed(2)}` })
      .waitFor();
    await snap('04b-missing-only');

    // Buying the owned ones again is a choice on the menu, and confirmed again in the dialog.
    await page().getByLabel('Buy the 2 I own again').check();
    const all = `$${(menu.reportCount * 0.01).toFixed(2)}`;
    await waitForPrice(page(), all);
    expect(await owned.textContent()).toBe('Includes 2 reports you already own, bought again for $0.02.');
    await page()
      .getByRole('button', { name: `Buy ${menu.reportCount} reports for ${all}` })
      .click();
    const dialog = page().getByRole('dialog');
    await dialog
      .locator('[data-testid="owned-note"]', { hasText: 'Includes 2 reports you already own' })
      .waitFor();
    const pay = dialog.getByRole('button', { name: `Pay ${all}` });
    expect(await pay.isDisabled()).toBe(true);
    await dialog.getByLabel('I want to pay again for the 2 reports I already own').check();
    expect(await pay.isDisabled()).toBe(false);
    await snap('04c-rebuy-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page().getByLabel('Buy the 2 I own again').uncheck();
    await waitForPrice(page(), `$${(rest * 0.01).toFixed(2)}`);

    // A range says why it prices nothing.
    await page().getByLabel('A date range').check();
    await page().getByLabel('From date').fill('2030-01-02');
    await page().getByLabel('To date').fill('2030-01-01');
    await page().locator('[data-testid="dates-error"]', { hasText: 'From is after To.' }).waitFor();
    await page()
      .locator('[data-testid="nothing-to-price"]', { hasText: 'No price until the dates are in order.' })
      .waitFor();
    await page().getByLabel('To date').fill('2030-01-03');
    await page()
      .locator('[data-testid="nothing-to-price"]', { hasText: 'No reports in this range.' })
      .waitFor();
    await page().getByLabel('From date').fill(menu.reports[1]!.createdAt.slice(0, 10));
    await page().getByLabel('To date').fill('');
    await page()
      .locator('[data-testid="nothing-to-price"]', { hasText: 'You own all 2 reports in this range.' })
      .waitFor();
    await snap('04d-range-owned');
    await page()
      .getByRole('radio', { name: /^All \d+ \(/ })
      .check();
  });

  it('with the library secret set, reads the rest without paying and says so', async () => {
    await page().getByRole('link', { name: 'Settings', exact: true }).click();
    await page().getByLabel('Library secret').fill(LIBRARY_SECRET);
    await page().getByRole('button', { name: 'Save secret' }).click();
    await page().locator('[data-testid="secret-state"]', { hasText: 'accepted by the service' }).waitFor();
    expect(await page().getByLabel('Library secret').inputValue()).toBe('');
    pageStates.push(await pageState(page()));
    await openShelf(page());
    await filterAndOpen(page(), handle);
    // All reports, as the menu opens: the two owned ones are left out by default.
    const rest = menu.reportCount - 2;
    // Reading with the secret is offered beside Buy, not in its place.
    await page().locator('[data-testid="secret-read"]', { hasText: 'nothing is charged' }).waitFor();
    await page()
      .getByRole('button', { name: new RegExp(`^Buy ${rest} reports for \\$`) })
      .waitFor();
    await snap('07b-library-secret-read');
    const payer = privateKeyToAccount(buyerKey as `0x${string}`).address;
    const before = await balanceOf(stack!, payer);
    await page()
      .getByRole('button', { name: `Read ${rest} reports with the library secret` })
      .click();
    const outcome = page().locator('[data-testid="purchase-outcome"]');
    await outcome.waitFor({ timeout: 30_000 });
    expect(await outcome.textContent()).toContain(
      `Read ${rest} reports with the library secret; nothing was paid.`,
    );
    // Nothing moved on chain; the ledger records a read, not a payment; the rest of the menu is stored under it.
    expect(await balanceOf(stack!, payer)).toBe(before);
    const rows = ledgerRows(dataDir);
    expect(rows).toHaveLength(2);
    const read = rows.find((row) => row.paid_with === 'library_secret');
    expect(read).toMatchObject({ state: 'completed', amount: '0', nonce: '', handle, report_count: rest });
    const stored = storedSnapshots(dataDir);
    expect(
      stored
        .filter((s) => s.purchase_id === read!.id)
        .map((s) => s.id)
        .sort(),
    ).toEqual(
      menu.reports
        .slice(2)
        .map((r) => r.id)
        .sort(),
    );
    expect(stored.every((s) => s.handle.toLowerCase() === handle.toLowerCase())).toBe(true);
    expect(stored).toHaveLength(menu.reportCount);
    await page().getByRole('link', { name: 'Purchases', exact: true }).click();
    const amounts = page().locator('table[aria-label="Purchases"] tbody tr td:nth-child(4)');
    await amounts.nth(1).waitFor();
    expect(await amounts.allTextContents()).toEqual(['library secret', '$0.02']);
    expect(await page().locator('[data-testid="daily-spend"]').textContent()).toContain('Today: $0.02');
  });

  it('keeps reading and searching offline, with a stale shelf', async () => {
    await stack!.stop();
    stack = null;
    await page().reload();
    // A reload stays on the screen it was on (Purchases); the stale copy is the Shelf's.
    await page().getByRole('link', { name: 'Shelf', exact: true }).click();
    await page().locator('[data-testid="stale"]').waitFor({ timeout: 30_000 });
    await snap('08-offline-shelf');
    await searchLibrary(page(), 'posted');
    await page().locator('[data-testid="search-hits"] button').first().click();
    await page().getByRole('heading', { name: 'Summary' }).waitFor();
    await snap('09-offline-report');
  });

  it('finds everything again after a restart on the same data dir', async () => {
    await closeDesk();
    desk = await driver().open({ dataDir, serviceUrl, rpcUrl, demoAsset });
    await page().getByRole('link', { name: 'Library', exact: true }).click();
    await page()
      .locator('[data-testid="library-items"] tbody tr')
      .nth(menu.reportCount - 1)
      .waitFor();
    expect(await page().locator('[data-testid="library-items"] tbody tr').count()).toBe(menu.reportCount);
    await searchLibrary(page(), 'posted');
    await page().getByRole('link', { name: 'Settings', exact: true }).click();
    await page().locator('[data-testid="wallet-state"]', { hasText: 'locked' }).first().waitFor();
    expect(await page().locator('[data-testid="secret-state"]').textContent()).toContain('Set');
    await snap('10-after-restart');
  });

  it('never lets the wallet key, passphrase or library secret reach the page', async () => {
    const secrets = [PASSPHRASE, LIBRARY_SECRET, buyerKey.slice(2)].map((s) => s.toLowerCase());
    pageStates.push(await pageState(page()));
    const seen = desk!.rpcBodies();
    const responses = seen === null ? [] : [...rpcBodies, ...(await seen)];
    if (seen !== null) {
      expect(responses.length).toBeGreaterThan(20);
      expect(responses.some((r) => r.includes('/rpc/wallet.import'))).toBe(true);
      expect(responses.some((r) => r.includes('/rpc/settings.setLibrarySecret'))).toBe(true);
    }
    for (const haystack of [...pageStates, ...responses].map((h) => h.toLowerCase())) {
      for (const secret of secrets) expect(haystack).not.toContain(secret);
    }
  });
}
