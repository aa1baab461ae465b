/**
 * A newcomer's walk with a browser wallet in the demo (issue 44): a wallet that never answers can be left
 * (Cancel, or Disconnect) without paying; the demo wallet then pays again, unlocked, never behind a
 * passphrase the demo never showed; and after a restart the window says which wallet pays instead of
 * switching payer silently. Help and the demo secret's hint are here too, as the same newcomer meets them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { shot } from './browser';
import { addAxe, audit } from './axe';
import { openDeskFixture, type DeskFixture } from './desk-fixture';
import { filterAndOpen, waitForPrice } from './flow';
import { balanceOf } from '../test/core/helpers';

const DEMO_CHAIN_HEX = '0x7a69';

/** Installed before any page script: an EIP-1193 provider whose requests go to the test. */
function installProvider(): void {
  const bridge = (window as unknown as { __walletBridge: (m: string) => Promise<string> }).__walletBridge;
  (window as unknown as { ethereum: unknown }).ethereum = {
    request: async ({ method }: { method: string }) => {
      const answer = JSON.parse(await bridge(method)) as {
        result?: unknown;
        error?: { code: number; message: string };
      };
      if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
      return answer.result;
    },
    on: () => undefined,
    removeListener: () => undefined,
  };
}

let fx: DeskFixture;
let page: Page;
let account: PrivateKeyAccount;
let demoAddress: string;
const signRequests: string[] = [];

/** A wallet that connects, but never answers a request to sign. */
function answerWallet(method: string): Promise<string> {
  switch (method) {
    case 'eth_requestAccounts':
    case 'eth_accounts':
      return Promise.resolve(JSON.stringify({ result: [account.address] }));
    case 'eth_chainId':
      return Promise.resolve(JSON.stringify({ result: DEMO_CHAIN_HEX }));
    case 'wallet_requestPermissions':
      return Promise.resolve(JSON.stringify({ result: [{ parentCapability: 'eth_accounts' }] }));
    case 'eth_signTypedData_v4':
      signRequests.push(method);
      return new Promise<string>(() => undefined);
    default:
      return Promise.resolve(
        JSON.stringify({ error: { code: 4200, message: `The test wallet does not support ${method}.` } }),
      );
  }
}

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 3, minReportsPerHandle: 2, maxReportsPerHandle: 3 } },
    demoKey: (stack) => stack.buyerKeys[0]!,
    demoLibrarySecret: true,
    beforeLoad: async (fresh) => {
      await addAxe(fresh);
      await fresh.exposeFunction('__walletBridge', answerWallet);
      await fresh.addInitScript(installProvider);
    },
  });
  account = privateKeyToAccount(fx.stack.buyerKeys[1]!);
  demoAddress = privateKeyToAccount(fx.stack.buyerKeys[0]!).address;
  page = fx.page;
});

afterAll(() => fx?.close());

const panelAddress = (address: string) =>
  page.locator(`.wallet-panel [data-testid="wallet-address"][title="${address}"]`).first();

async function useBrowserWallet(): Promise<void> {
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('button', { name: 'Use browser wallet' }).click();
  await panelAddress(account.address).waitFor();
}

/** Opens a menu and confirms a purchase, which then waits on the browser wallet. */
async function buyAndWait(): Promise<void> {
  const shelf = await fx.desk.core.handlers['shelf.list']({});
  const handle = shelf.entries[0]!.username;
  const menu = await fx.desk.core.handlers['menu.get']({ handle });
  await page.getByRole('link', { name: 'Shelf', exact: true }).click();
  await filterAndOpen(page, handle);
  const usd = `$${(menu.reportCount * 0.01).toFixed(2)}`;
  await waitForPrice(page, usd);
  await page.getByRole('button', { name: new RegExp(`^Buy \\d+ reports? for \\${usd}$`) }).click();
  await page.getByRole('button', { name: `Pay ${usd}` }).click();
  await page.getByTestId('cancel-signing').waitFor();
}

describe('a browser wallet that never answers', () => {
  it('is left with Cancel, from the keyboard, and nothing is paid', async () => {
    await useBrowserWallet();
    const before = await balanceOf(fx.stack, account.address);
    await buyAndWait();
    expect(await page.getByTestId('purchase-progress').textContent()).toBe(
      'Waiting for your wallet to sign the payment…',
    );
    await shot(page, 'purchase-waiting-for-wallet');
    expect(await audit(page, 'purchase-waiting-for-wallet')).toEqual([]);
    await page.getByTestId('cancel-signing').focus();
    await page.keyboard.press('Enter');
    const outcome = page.getByTestId('purchase-outcome');
    await outcome.waitFor();
    expect(await outcome.textContent()).toBe('You cancelled the signature request, so nothing was paid.');
    expect(await page.getByTestId('cancel-signing').count()).toBe(0);
    expect(signRequests).toHaveLength(1);
    expect(await balanceOf(fx.stack, account.address)).toBe(before);
    const ledger = await fx.desk.core.handlers['purchases.list']({});
    expect(ledger.purchases.filter((p) => p.state === 'completed')).toHaveLength(0);
  });

  it('is left by Disconnect; the demo wallet then pays, unlocked, with no passphrase asked', async () => {
    await buyAndWait();
    await page.locator('.purchase-panel').getByRole('button', { name: 'Disconnect' }).click();
    const outcome = page.getByTestId('purchase-outcome');
    await outcome.waitFor();
    expect(await outcome.textContent()).toBe(
      'The wallet was disconnected before it signed, so nothing was paid.',
    );
    await panelAddress(demoAddress).waitFor();
    const panel = page.locator('.purchase-panel');
    await panel.getByTestId('wallet-state').filter({ hasText: 'unlocked' }).waitFor();
    const text = await panel.textContent();
    expect(text).not.toContain('Signing the payment');
    expect(text).not.toContain('Waiting for your wallet');
    expect(text).not.toContain('Set up and unlock a wallet');
    expect(await panel.getByLabel('Wallet passphrase').count()).toBe(0);
    expect(await page.getByTestId('payer-notice').count()).toBe(0);
    await shot(page, 'purchase-wallet-disconnected');
    expect(await audit(page, 'purchase-wallet-disconnected')).toEqual([]);
  });
});

describe('after a restart', () => {
  it('says the demo wallet pays and the browser wallet is not connected, and reconnects it', async () => {
    await useBrowserWallet();
    // What a restart leaves: core has forgotten the browser wallet and pays with its keystore again, while
    // this browser still has the wallet connected.
    await fx.desk.core.handlers['wallet.forgetExternal']({});
    await page.reload();
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const notice = page.getByTestId('payer-notice');
    await notice.waitFor();
    const text = await notice.textContent();
    expect(text).toContain('The demo wallet pays');
    expect(text).toContain('is not connected to Intel Desk');
    expect(await notice.locator(`[title="${demoAddress}"]`).count()).toBe(1);
    expect(await notice.locator(`[title="${account.address}"]`).count()).toBe(1);
    expect(await page.locator('.wallet-panel').textContent()).toContain(
      'connected in this window, not paying.',
    );
    await shot(page, 'settings-payer-notice');
    expect(await audit(page, 'settings-payer-notice')).toEqual([]);
    await notice.getByRole('button', { name: 'Reconnect the browser wallet' }).click();
    await notice.waitFor({ state: 'detached' });
    expect(await fx.desk.core.handlers['wallet.status']({})).toMatchObject({
      kind: 'external',
      address: account.address,
    });
  });
});

describe('help and the demo secret', () => {
  it('opens Help from the header with the keyboard: version, shortcuts, search syntax', async () => {
    const help = page.getByRole('button', { name: 'Help', exact: true });
    await help.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Help' });
    await dialog.waitFor();
    const info = await fx.desk.core.handlers['app.info']({});
    expect(await dialog.getByTestId('help-version').textContent()).toContain(`Intel Desk ${info.version}`);
    expect(await dialog.getByRole('table', { name: 'Keyboard shortcuts' }).getByRole('row').count()).toBe(9);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Close');
    await shot(page, 'help-dialog');
    expect(await audit(page, 'help-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Search syntax' }).click();
    const syntax = page.getByRole('dialog', { name: 'Search syntax' });
    await syntax.waitFor();
    await page.keyboard.press('Escape');
    await syntax.waitFor({ state: 'hidden' });
    await help.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('points Dossiers to the demo secret in Settings', async () => {
    await page.getByRole('link', { name: 'Dossiers', exact: true }).click();
    const hint = page.getByTestId('demo-secret-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toContain('Use the demo secret');
    await shot(page, 'dossiers-demo-secret-hint');
    expect(await audit(page, 'dossiers-demo-secret-hint')).toEqual([]);
    await hint.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Use the demo secret' }).waitFor();
  });
});
