/**
 * `npm run screenshots`: the demo in browser mode (reference service, local chain, demo wallet, web host) in
 * Debian's Chromium, every screen saved in light and dark at 1280 px, and the ones that get tight at 900 px,
 * into docs/screenshots/ for the README. Purchases are made through the same RPC the page uses, so the
 * pictures show a library with reports in it. PNGs are quantized with pngquant when it is installed (about a
 * third of the size; `apt-get install pngquant`). `npm run screenshots -- report menu` takes only the shots
 * with those names.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startStack, type Stack } from '../src/service/stack';
import { startDeskHost, type DeskHost } from '../src/host/desk-host';
import type { RpcInput, RpcMethod, RpcOutputs } from '../src/shared/rpc';
import { buildIfStale } from './build-if-stale';
import { launchDebianChromium } from './chromium';

const root = path.resolve(import.meta.dirname, '..');
const OUT = path.join(root, 'docs', 'screenshots');
const only = new Set(process.argv.slice(2));
const wanted = (name: string) => only.size === 0 || only.has(name);

type Theme = 'light' | 'dark';

interface Shot {
  name: string;
  hash: string;
  /** What must be on screen before the picture is taken. */
  ready: string;
  widths: number[];
  fullPage?: boolean;
  /** What a person does on the screen first (types a query), after it opened. */
  act?: (page: Page) => Promise<void>;
}

function rpc(desk: DeskHost) {
  return async <M extends RpcMethod>(method: M, input: RpcInput<M>): Promise<RpcOutputs[M]> => {
    const response = await fetch(`${desk.host.origin}/rpc/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Intel-Desk-Token': desk.host.token },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
    if (!body.ok) throw new Error(`${method}: ${body.error?.message ?? response.status}`);
    return body.value as RpcOutputs[M];
  };
}

async function buyAll(call: ReturnType<typeof rpc>, handle: string): Promise<void> {
  const quote = await call('quote.get', { handle, selection: { kind: 'all' } });
  const outcome = await call('purchase.start', { quoteId: quote.quoteId, confirmedAmount: quote.amount });
  if (outcome.status !== 'completed') throw new Error(`buying @${handle}: ${outcome.status}`);
}

function shrink(file: string): void {
  try {
    execFileSync('pngquant', ['--quality', '60-90', '--strip', '--force', '--output', file, file], {
      stdio: 'ignore',
    });
  } catch {
    // Without pngquant (or when it cannot reach the quality) the full-colour PNG is kept.
  }
}

async function take(page: Page, shot: Shot, theme: Theme, width: number): Promise<string> {
  await page.setViewportSize({ width, height: 860 });
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, shot.hash);
  await shot.act?.(page);
  await page.locator(shot.ready).first().waitFor({ timeout: 20_000 });
  // Fonts and the charts' measured widths settle within a frame or two of the content arriving.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  const file = path.join(OUT, `${shot.name}-${width}-${theme}.png`);
  await page.screenshot({ path: file, fullPage: shot.fullPage ?? false });
  shrink(file);
  return file;
}

async function main(): Promise<void> {
  await buildIfStale(root, (line) => process.stderr.write(`${line}\n`));
  mkdirSync(OUT, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-screenshots-'));
  let stack: Stack | null = null;
  let desk: DeskHost | null = null;
  let browser: Browser | null = null;
  try {
    stack = await startStack({ log: () => undefined });
    desk = await startDeskHost({
      core: {
        dataDir,
        serviceUrl: stack.baseUrl,
        rpcUrl: stack.rpcUrl,
        demo: true,
        demoAsset: stack.asset,
        demoLibrarySecret: stack.librarySecret,
      },
      rendererDir: path.join(root, 'out', 'renderer'),
      demoKey: stack.buyerKeys[0]!,
    });
    const call = rpc(desk);
    const shelf = await call('shelf.list', {});
    const byReports = [...shelf.entries].sort((a, b) => (b.reportCount ?? 0) - (a.reportCount ?? 0));
    const [main, second] = [byReports[2]!.username, byReports[5]!.username];
    browser = await launchDebianChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(desk.host.url);
    // First run: the welcome, before anything is bought.
    const files: string[] = [];
    if (wanted('welcome'))
      files.push(
        await take(
          page,
          { name: 'welcome', hash: '#/shelf', ready: '[data-testid="welcome"]', widths: [] },
          'light',
          1280,
        ),
        await take(
          page,
          { name: 'welcome', hash: '#/shelf', ready: '[data-testid="welcome"]', widths: [] },
          'dark',
          1280,
        ),
      );
    await call('settings.update', { welcomeDismissed: true });
    await buyAll(call, main);
    await buyAll(call, second);
    // A budget the purchase went over, for Purchases and Settings to show.
    await call('budget.set', { handle: main, monthlyUnits: '50000' });
    await call('settings.useDemoLibrarySecret', {});
    const owned = (await call('library.list', { handle: main })).items;
    const latest = owned[0]!;
    const earlier = owned[owned.length - 1]!;
    const purchase = (await call('purchases.list', {})).purchases.find((p) => p.state === 'completed')!;
    // The Library's side panel and labels, as a person who asks it questions has them.
    await call('searches.save', { name: 'Gloomy weeks', query: 'sentiment<0 posts>50' });
    await call('searches.save', { name: `@${main} this autumn`, query: `handle:${main} after:2026-09-01` });
    await call('report.tag', { id: latest.id, action: 'add', tag: 'follow-up' });
    await call('report.note', { id: latest.id, note: 'Compare the topic shares with the previous quarter.' });
    await page.reload();
    const shots: Shot[] = [
      { name: 'shelf', hash: '#/shelf', ready: '.shelf-row', widths: [1280, 900] },
      {
        name: 'menu',
        hash: `#/handle/${encodeURIComponent(main)}`,
        ready: 'table[aria-label="Reports"] tbody tr',
        widths: [1280, 900],
      },
      {
        name: 'report',
        hash: `#/report/${encodeURIComponent(latest.id)}`,
        ready: '.chart-box .recharts-surface',
        widths: [1280, 900],
        fullPage: true,
      },
      { name: 'library', hash: '#/library', ready: '.library-table tbody tr', widths: [1280] },
      {
        name: 'search',
        hash: '#/library',
        act: (page) =>
          page.getByLabel('Search owned reports').fill(`tag:follow-up OR handle:${second} posts>10`),
        ready: '[data-testid="search-hits"] li',
        widths: [1280],
      },
      {
        name: 'compare',
        hash: `#/report/${encodeURIComponent(latest.id)}?compare=${encodeURIComponent(earlier.id)}`,
        ready: '.report-diff .diff-table',
        widths: [1280],
        fullPage: true,
      },
      {
        name: 'receipt',
        hash: `#/purchases/${encodeURIComponent(purchase.id)}`,
        ready: '.receipt-fields',
        widths: [1280],
      },
      {
        name: 'purchases',
        hash: '#/purchases',
        ready: '[data-testid="spend-by-day"] .recharts-bar-rectangle',
        widths: [1280, 900],
        fullPage: true,
      },
      { name: 'settings', hash: '#/settings', ready: '.settings-block', widths: [1280], fullPage: true },
      {
        name: 'dossier',
        hash: `#/dossiers/${encodeURIComponent(main)}`,
        ready: '.dossier-section',
        widths: [1280],
        fullPage: true,
      },
    ];
    for (const shot of shots.filter((s) => wanted(s.name)))
      for (const width of shot.widths)
        for (const theme of ['light', 'dark'] as const) files.push(await take(page, shot, theme, width));
    const total = files.reduce((sum, file) => sum + statSync(file).size, 0);
    process.stdout.write(
      `${files.length} screenshots in ${path.relative(root, OUT)} (${Math.round(total / 1024)} KiB)\n`,
    );
  } finally {
    await browser?.close();
    await desk?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
