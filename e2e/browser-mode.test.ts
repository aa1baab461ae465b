/**
 * Browser mode, as a new user: the reference service, anvil, core and the web host all real, Debian's
 * Chromium in front. Browse, price, connect a wallet, buy a range, read, go offline, restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startStack, type Stack } from '../src/service/stack';
import { startDeskHost, type DeskHost } from '../src/host/desk-host';
import type { MenuView } from '../src/shared/rpc';
import { buildIfStale } from '../scripts/build-if-stale';
import { launchChromium, pageState, recordRpc, shot } from './browser';
import { buy, filterAndOpen, openShelf, searchLibrary, waitForPrice } from './flow';

const root = path.resolve(__dirname, '..');
const PASSPHRASE = 'e2e wallet passphrase';
const LIBRARY_SECRET = 'e2e-library-secret-7f3c9a1d5b';

let stack: Stack | null = null;
let desk: DeskHost | null = null;
let browser: Browser | null = null;
let page: Page;
let dataDir: string;
let handle: string;
let menu: MenuView;
let buyerKey: string;
let rpcUrl: string;
const rpcLog: { all(): Promise<string[]> }[] = [];
const pageStates: string[] = [];

async function startDesk(serviceUrl: string, rpcUrl: string): Promise<DeskHost> {
  return startDeskHost({
    core: { dataDir, serviceUrl, rpcUrl, demo: true, attempts: 1 },
    rendererDir: path.join(root, 'out', 'renderer'),
  });
}

async function openPage(url: string): Promise<void> {
  page = await browser!.newPage({ viewport: { width: 1280, height: 860 } });
  rpcLog.push(recordRpc(page));
  await page.goto(url);
}

beforeAll(async () => {
  await buildIfStale(root, () => undefined);
  browser = await launchChromium();
  stack = await startStack({
    seed: { handles: 12, minReportsPerHandle: 4, maxReportsPerHandle: 8 },
    librarySecret: LIBRARY_SECRET,
  });
  buyerKey = stack.buyerKeys[0]!;
  rpcUrl = stack.rpcUrl;
  dataDir = mkdtempSync(path.join(tmpdir(), 'desk-e2e-'));
  desk = await startDesk(stack.baseUrl, stack.rpcUrl);
  const shelf = await desk.core.handlers['shelf.list']({});
  handle = shelf.entries.find((e) => (e.reportCount ?? 0) >= 4)!.username;
  menu = await desk.core.handlers['menu.get']({ handle });
  await openPage(desk.host.url);
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('browser mode, as a new user', () => {
  it('shows the shelf with avatars, counts and a working filter', async () => {
    await page.locator('.shelf-row').first().waitFor();
    expect(await page.locator('[data-testid="shelf-count"]').textContent()).toContain('12 of 12 handles');
    expect(await page.locator('.shelf-row img.avatar').count()).toBeGreaterThan(0);
    await shot(page, '01-shelf');
    await page.keyboard.press('/');
    await page.keyboard.type('zz-no-such-handle');
    await page.getByText('No handle matches').waitFor();
    await page.getByLabel('Filter handles').fill('');
  });

  it('opens a handle menu and shows the live price of the choice', async () => {
    await filterAndOpen(page, handle);
    const rows = page.locator('table[aria-label="Reports"] tbody tr');
    expect(await rows.count()).toBe(menu.reportCount);
    await waitForPrice(page, `$${(menu.reportCount * 0.01).toFixed(2)}`);
    // Unticking one report re-prices the choice after the debounce.
    await rows.first().getByRole('checkbox').uncheck();
    await waitForPrice(page, `$${((menu.reportCount - 1) * 0.01).toFixed(2)}`);
    await shot(page, '02-menu');
    expect(await page.getByRole('button', { name: /^Buy / }).isDisabled()).toBe(true);
  });

  it('imports the demo wallet in Settings; only the address comes back', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('textbox', { name: 'Private key' }).fill(buyerKey);
    await page.getByLabel('New passphrase').fill(PASSPHRASE);
    await page.getByRole('button', { name: 'Import wallet' }).click();
    await page.getByText('Wallet imported and unlocked.').waitFor();
    await page.locator('[data-testid="wallet-state"]', { hasText: 'unlocked' }).first().waitFor();
    expect(await page.getByRole('textbox', { name: 'Private key' }).inputValue()).toBe('');
    pageStates.push(await pageState(page));
    await shot(page, '03-settings');
  });

  it('buys a date range after confirming the exact amount', async () => {
    await openShelf(page);
    await filterAndOpen(page, handle);
    await page.getByLabel('A date range').check();
    await page.getByLabel('From date').fill(menu.reports[1]!.createdAt.slice(0, 10));
    await waitForPrice(page, '$0.02');
    await buy(page, '$0.02');
    const outcome = page.locator('[data-testid="purchase-outcome"]');
    expect(await outcome.textContent()).toContain('Bought 2 reports for $0.02');
    expect(await outcome.textContent()).toMatch(/Receipt: 0x[0-9a-f]{64}/);
    await page.getByRole('button', { name: 'owned · read' }).nth(1).waitFor();
    await shot(page, '04-purchase');
  });

  it('reads the report: narrative, change summary, charts, and navigation over time', async () => {
    await page.getByRole('button', { name: 'Read now' }).click();
    await page.getByRole('heading', { name: 'Summary' }).waitFor();
    expect(await page.locator('.change').textContent()).toContain('Against the report of');
    expect(await page.locator('svg.chart').count()).toBeGreaterThan(1);
    expect(await page.locator('script:not([src])').count()).toBe(0);
    await shot(page, '05-report');
    await page.getByRole('button', { name: '← Older' }).click();
    await page.locator('h1', { hasText: menu.reports[1]!.createdAt.slice(0, 10) }).waitFor();
    expect(await page.getByRole('button', { name: '← Older' }).isDisabled()).toBe(true);
  });

  it('searches the library with highlighted snippets and lists the purchase', async () => {
    await searchLibrary(page, 'posted');
    expect(await page.locator('[data-testid="search-hits"] li').count()).toBe(2);
    await shot(page, '06-library-search');
    await page.getByRole('button', { name: 'Purchases', exact: true }).click();
    await page.locator('.pill-completed').waitFor();
    expect(await page.locator('[data-testid="daily-spend"]').textContent()).toContain('Today: $0.02');
    await shot(page, '07-purchases');
  });

  it('with the library secret set, reads the rest without paying and says so', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByLabel('Library secret').fill(LIBRARY_SECRET);
    await page.getByRole('button', { name: 'Save secret' }).click();
    await page.locator('[data-testid="secret-state"]', { hasText: 'accepted by the service' }).waitFor();
    expect(await page.getByLabel('Library secret').inputValue()).toBe('');
    pageStates.push(await pageState(page));
    await openShelf(page);
    await filterAndOpen(page, handle);
    await page.getByLabel(/Missing only/).check();
    const rest = menu.reportCount - 2;
    await page
      .locator('[data-testid="secret-read"]', { hasText: `these ${rest} reports are read` })
      .waitFor();
    await shot(page, '04b-library-secret-read');
    await page.getByRole('button', { name: `Read ${rest} reports with the library secret` }).click();
    const outcome = page.locator('[data-testid="purchase-outcome"]');
    await outcome.waitFor({ timeout: 30_000 });
    expect(await outcome.textContent()).toContain(
      `Read ${rest} reports with the library secret; nothing was paid.`,
    );
    const ledger = await desk!.core.handlers['purchases.list']({});
    expect(ledger.purchases.map((p) => [p.paidWith, p.amountUsd])).toEqual([
      ['library_secret', 0],
      ['payment', 0.02],
    ]);
  });

  it('keeps reading and searching offline, with a stale shelf', async () => {
    await stack!.stop();
    stack = null;
    await page.reload();
    await page.locator('[data-testid="stale"]').waitFor({ timeout: 30_000 });
    await shot(page, '08-offline-shelf');
    await searchLibrary(page, 'posted');
    await page.locator('[data-testid="search-hits"] button').first().click();
    await page.getByRole('heading', { name: 'Summary' }).waitFor();
    await shot(page, '09-offline-report');
  });

  it('finds everything again after a restart on the same data dir', async () => {
    const old = desk!;
    const serviceUrl = old.core.context.serviceUrl();
    await page.close();
    await old.close();
    desk = await startDesk(serviceUrl, rpcUrl);
    expect(desk.host.token).not.toBe(old.host.token);
    await openPage(desk.host.url);
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    expect(await page.locator('[data-testid="library-items"] tbody tr').count()).toBe(menu.reportCount);
    await searchLibrary(page, 'posted');
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.locator('[data-testid="wallet-state"]', { hasText: 'locked' }).first().waitFor();
    expect(await page.locator('[data-testid="secret-state"]').textContent()).toContain('Set');
    await shot(page, '10-after-restart');
  });

  it('never lets the wallet key, passphrase or library secret reach the page', async () => {
    const secrets = [PASSPHRASE, LIBRARY_SECRET, buyerKey.slice(2).toLowerCase()];
    pageStates.push(await pageState(page));
    const responses = (await Promise.all(rpcLog.map((r) => r.all()))).flat();
    expect(responses.length).toBeGreaterThan(20);
    expect(responses.some((r) => r.includes('/rpc/wallet.import'))).toBe(true);
    expect(responses.some((r) => r.includes('/rpc/settings.setLibrarySecret'))).toBe(true);
    for (const haystack of [...pageStates, ...responses]) {
      for (const secret of secrets) expect(haystack.toLowerCase()).not.toContain(secret.toLowerCase());
    }
  });
});
