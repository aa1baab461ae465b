/** Keyboard only: find a handle, open its menu, buy, confirm and read without touching the mouse. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startStack, type Stack } from '../src/service/stack';
import { startDeskHost, type DeskHost } from '../src/host/desk-host';
import { buildIfStale } from '../scripts/build-if-stale';
import { launchChromium, shot } from './browser';

const root = path.resolve(__dirname, '..');
let stack: Stack;
let desk: DeskHost;
let browser: Browser;
let page: Page;
let dataDir: string;

const focusedText = (p: Page) => p.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

/** Tabs forward until the focused element's text matches, as a person would; fails after `limit` presses. */
async function tabTo(p: Page, pattern: RegExp, limit = 80): Promise<string> {
  for (let i = 0; i < limit; i++) {
    await p.keyboard.press('Tab');
    const text = await focusedText(p);
    if (pattern.test(text)) return text;
  }
  throw new Error(`No element matching ${pattern} is reachable with Tab`);
}

beforeAll(async () => {
  await buildIfStale(root, () => undefined);
  stack = await startStack({ seed: { handles: 6, minReportsPerHandle: 2, maxReportsPerHandle: 4 } });
  dataDir = mkdtempSync(path.join(tmpdir(), 'desk-keys-e2e-'));
  desk = await startDeskHost({
    core: { dataDir, serviceUrl: stack.baseUrl, rpcUrl: stack.rpcUrl, demo: true, attempts: 1 },
    rendererDir: path.join(root, 'out', 'renderer'),
    demoKey: stack.buyerKeys[2]!,
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(desk.host.url);
  await page.locator('.shelf-row').first().waitFor();
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('keyboard only', () => {
  it('filters with "/", moves with the arrows and opens a menu with Enter', async () => {
    const shelf = await desk.core.handlers['shelf.list']({});
    const target = shelf.entries[shelf.entries.length - 1]!;
    await page.keyboard.press('/');
    await page.keyboard.type(target.username.slice(0, -1));
    await page.locator('[data-testid="shelf-count"]', { hasText: /^1 of / }).waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('listbox');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: new RegExp(`@${target.username}`) }).waitFor();
  });

  it('reaches Buy with Tab, closes the confirmation with Esc, pays with Enter and reads', async () => {
    await page.locator('[data-testid="price"]').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: /^Buy / }).and(page.locator(':enabled')).waitFor();
    await tabTo(page, /^Buy \d+ reports? for/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Confirm the purchase' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Closing the dialog gives focus back to the button that opened it.
    expect(await focusedText(page)).toMatch(/^Buy \d+ reports? for/);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await tabTo(page, /^Pay \$/, 10);
    await shot(page, 'keyboard-confirm');
    await page.keyboard.press('Enter');
    await page
      .locator('[data-testid="purchase-outcome"]', { hasText: 'Bought' })
      .waitFor({ timeout: 30_000 });
    await tabTo(page, /^Read now$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Summary' }).waitFor();
  });
});
