/**
 * WalletConnect is offered only once a project id is set, and nothing contacts its relay before that. With
 * one set on a machine that cannot reach the relay (as here), pairing fails with a clear message and the app
 * stays usable.
 */
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
const PROJECT_ID = '0123456789abcdef0123456789abcdef';
let stack: Stack;
let desk: DeskHost;
let browser: Browser;
let page: Page;
let dataDir: string;
const foreign: string[] = [];

beforeAll(async () => {
  await buildIfStale(root, () => undefined);
  stack = await startStack({ seed: { handles: 2, minReportsPerHandle: 1, maxReportsPerHandle: 2 } });
  dataDir = mkdtempSync(path.join(tmpdir(), 'desk-wc-e2e-'));
  desk = await startDeskHost({
    core: { dataDir, serviceUrl: stack.baseUrl, rpcUrl: stack.rpcUrl, demo: true, attempts: 1 },
    rendererDir: path.join(root, 'out', 'renderer'),
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const origin = new URL(desk.host.url).origin;
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  page.on('websocket', (socket) => foreign.push(socket.url()));
  await page.goto(desk.host.url);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByLabel('WalletConnect project id').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('WalletConnect', () => {
  it('is not offered, and nothing leaves the machine, without a project id', async () => {
    expect(await page.getByRole('button', { name: 'Connect with WalletConnect' }).count()).toBe(0);
    expect(foreign).toEqual([]);
  });

  it('refuses a malformed project id with a specific message', async () => {
    await page.getByLabel('WalletConnect project id').fill('not-a-project-id');
    await page.getByText('A WalletConnect project id is 32 hexadecimal characters.').waitFor();
    expect(await page.getByRole('button', { name: 'Save project id' }).isDisabled()).toBe(true);
    await expect(
      desk.core.handlers['settings.get']({}).then((s) => s.walletConnectProjectId),
    ).resolves.toBeNull();
  });

  it('offers pairing once a project id is saved, and says so clearly when the relay is out of reach', async () => {
    await page.getByLabel('WalletConnect project id').fill(PROJECT_ID);
    await page.getByRole('button', { name: 'Save project id' }).click();
    await page.getByRole('button', { name: 'Connect with WalletConnect' }).click();
    const alert = page.locator('[data-testid="walletconnect"] [role="alert"]');
    await alert.waitFor({ timeout: 45_000 });
    expect(await alert.textContent()).toMatch(/WalletConnect|relay/i);
    await shot(page, 'walletconnect-offline');
    expect(foreign.every((url) => /^(wss|https):\/\/[a-z.]*walletconnect\.(org|com)\//.test(url))).toBe(true);
    // The rest of the app is unaffected.
    await page.getByRole('button', { name: 'Shelf', exact: true }).click();
    await page.locator('.shelf-row').first().waitFor();
  });
});
