/**
 * A WalletConnect session's life, with the official clients on both sides and its own relay, chain, seller and
 * browser (no other test's clock, held request or relay traffic can reach it): the session survives a restart
 * without the relay being dialled before the person asks, follows the wallet's account change, pays from the
 * new account, and a disconnection in Settings ends it in the wallet too. Every wait has its own deadline and
 * name, so a failure says which step never ended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { getAddress } from 'viem';
import { type BaseSepolia, type InteropPeer } from '../test/interop/fixtures';
import { step } from '../test/walletconnect/deadline';
import type { TestRelay } from '../test/walletconnect/relay';
import { startTestWallet, type TestWallet } from '../test/walletconnect/wallet';
import { filterAndOpen, openShelf, waitForPrice } from './flow';
import {
  openWalletConnectDesk,
  showPairingLink,
  startWalletConnectWorld,
  type WalletConnectDesk,
  type WalletConnectWorld,
} from './walletconnect-desk';

const BASE_SEPOLIA = 'eip155:84532';
/** The peer's unit price, $0.01, in USDC base units. */
const UNIT = 10_000n;

let world: WalletConnectWorld | undefined;
let browser: Browser;
let chain: BaseSepolia;
let peer: InteropPeer;
let relay: TestRelay;
let desk: WalletConnectDesk | undefined;
let wallet: TestWallet | undefined;

beforeAll(async () => {
  world = await startWalletConnectWorld();
  ({ browser, chain, peer, relay } = world);
});

afterAll(async () => {
  await wallet?.stop();
  await desk?.close();
  await world?.stop();
});

describe('a WalletConnect session', () => {
  it('survives a restart without dialling the relay, follows an account change, and disconnects on both sides', async () => {
    const buyer = chain.accounts.buyers[4]!;
    await step('funding the first account', chain.fund(buyer.address, 1_000_000n));
    wallet = await step(
      'starting the wallet',
      startTestWallet({ relayUrl: relay.url, signer: buyer.account, chains: [BASE_SEPOLIA] }),
    );
    desk = await step(
      'opening the desk',
      openWalletConnectDesk({ browser, serviceUrl: peer.url, rpcUrl: chain.rpcUrl, relayUrl: relay.url }),
    );
    const uri = await step('showing the pairing link', showPairingLink(desk.page));
    await step('pairing the wallet', wallet.pair(uri));
    await step(
      'the page saying connected',
      desk.page.getByText(/WalletConnect wallet .* connected\./).waitFor(),
    );
    const topic = wallet.client.session.getAll()[0]!.topic;

    await step('restarting the desk', desk.restart(), 45_000);
    const page = desk.page;
    const dialled = desk.relaySockets.length;
    await step(
      'opening Settings after the restart',
      async () => {
        await page.getByRole('link', { name: 'Settings', exact: true }).click();
        await page.getByRole('button', { name: 'Connect with WalletConnect' }).waitFor();
      },
      45_000,
    );
    await step('opening the shelf', openShelf(page));
    // Started and browsed: the relay was not contacted before the person asked.
    expect(desk.relaySockets).toHaveLength(dialled);

    await step(
      'connecting the stored session',
      async () => {
        await page.getByRole('link', { name: 'Settings', exact: true }).click();
        await page.getByRole('button', { name: 'Connect with WalletConnect' }).click();
        await page.getByText(/WalletConnect wallet .* connected\./).waitFor();
      },
      45_000,
    );
    // The stored session comes back: connected again with no new pairing code.
    expect(await page.getByLabel('WalletConnect pairing link').count()).toBe(0);
    expect(desk.relaySockets).toHaveLength(dialled + 1);

    // The wallet moves to another account: the desk follows, and the next payment is from it.
    const next = chain.accounts.buyers[0]!;
    await step('funding the second account', chain.fund(next.address, 1_000_000n));
    await step('the wallet changing account', wallet.changeAccount(topic, next.account));
    const core = desk.desk.core;
    await step('the desk following the account', async () => {
      await expect
        .poll(async () => (await core.handlers['wallet.status']({})).address, { timeout: 25_000 })
        .toBe(next.address);
    });
    const before = await chain.balanceOf(next.address);
    await step(
      'confirming six reports',
      async () => {
        await openShelf(page);
        await filterAndOpen(page, 'carol_watch');
        await waitForPrice(page, '$0.06');
        await page.getByRole('button', { name: 'Buy 6 reports for $0.06' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Pay $0.06' }).click();
      },
      60_000,
    );
    const outcome = page.locator('[data-testid="purchase-outcome"]');
    await step('the purchase finishing', outcome.waitFor());
    expect(await outcome.textContent()).toContain('Bought 6 reports for $0.06.');
    expect(getAddress(wallet.typedData.at(-1)!.message['from']!)).toBe(next.address);
    expect(await chain.balanceOf(next.address)).toBe(before - 6n * UNIT);

    // Disconnect in Settings ends the session in the wallet too.
    await step(
      'disconnecting in Settings',
      async () => {
        await page.getByRole('link', { name: 'Settings', exact: true }).click();
        await page.getByRole('button', { name: 'Disconnect' }).click();
        await page.getByRole('button', { name: 'Connect with WalletConnect' }).waitFor();
      },
      45_000,
    );
    const ended = wallet;
    await step('the wallet hearing the session end', async () => {
      await expect.poll(() => ended.deletes, { timeout: 25_000 }).toEqual([topic]);
    });
    expect(wallet.client.session.getAll()).toEqual([]);
    // And the desk forgets the wallet: no address, no balance, nothing a purchase could wait on.
    await step('the desk forgetting the wallet', async () => {
      await expect
        .poll(async () => (await core.handlers['wallet.status']({})).kind, { timeout: 25_000 })
        .toBeNull();
      await page.getByTestId('wallet-panel').getByText('No wallet yet.').waitFor();
    });
  }, 240_000);
});
