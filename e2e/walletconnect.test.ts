/**
 * WalletConnect is offered only once a project id is set, and nothing contacts its relay before that. With
 * one set on a machine that cannot reach the relay (as here), pairing fails with a clear message and the app
 * stays usable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from './browser';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

const PROJECT_ID = '0123456789abcdef0123456789abcdef';
let fx: DeskFixture;
let page: Page;
const foreign: string[] = [];

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 2, minReportsPerHandle: 1, maxReportsPerHandle: 2 } },
    beforeLoad: async (fresh) => {
      fresh.on('request', (request) => {
        if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(request.url()) && !request.url().startsWith('data:'))
          foreign.push(request.url());
      });
      fresh.on('websocket', (socket) => foreign.push(socket.url()));
    },
  });
  page = fx.page;
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByLabel('WalletConnect project id').waitFor();
});

afterAll(() => fx?.close());

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
      fx.desk.core.handlers['settings.get']({}).then((s) => s.walletConnectProjectId),
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
    await page.getByRole('link', { name: 'Shelf', exact: true }).click();
    await page.locator('.shelf-row').first().waitFor();
  });
});
