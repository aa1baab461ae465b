/**
 * What a phone wallet does besides signing, with the official clients on both sides and the test relay between
 * them (see walletconnect-pairing.test.ts for the path that pays): it refuses, it meets a double click on Pay,
 * it is paired while the relay drops and comes back, it ends the session in the middle of a purchase. In each, nothing is paid that the person did not see paid, and the purchase says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { getAddress, type Hex } from 'viem';
import { ledgerRows } from '../test/core/helpers';
import { type BaseSepolia, type InteropPeer } from '../test/interop/fixtures';
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
const usdOf = (count: number) => `$${(count / 100).toFixed(2)}`;

let world: WalletConnectWorld | undefined;
let browser: Browser;
let chain: BaseSepolia;
let peer: InteropPeer;
let relay: TestRelay;

beforeAll(async () => {
  world = await startWalletConnectWorld();
  ({ browser, chain, peer, relay } = world);
});

afterAll(async () => {
  await world?.stop();
});

/** Confirms all reports of `handle` and presses Pay (twice at once when `double`). */
async function pay(page: Page, handle: string, count: number, options: { double?: boolean } = {}) {
  await openShelf(page);
  await filterAndOpen(page, handle);
  await waitForPrice(page, usdOf(count));
  await page.getByRole('button', { name: `Buy ${count} reports for ${usdOf(count)}` }).click();
  const payButton = page.getByRole('dialog').getByRole('button', { name: `Pay ${usdOf(count)}` });
  if (options.double) await payButton.dblclick();
  else await payButton.click();
}

async function outcomeText(page: Page): Promise<string> {
  const outcome = page.locator('[data-testid="purchase-outcome"]');
  await outcome.waitFor({ timeout: 60_000 });
  return (await outcome.textContent()) ?? '';
}

/** Nothing moved: the buyer's balance is as it was, the peer got no paid request, the ledger has no new row. */
async function expectNothingPaid(
  desk: WalletConnectDesk,
  payer: `0x${string}`,
  before: { balance: bigint; paid: number; rows: number },
) {
  expect(await chain.balanceOf(payer)).toBe(before.balance);
  expect(peer.paidRequests).toHaveLength(before.paid);
  expect(ledgerRows(desk.dataDir)).toHaveLength(before.rows);
}

describe('a paired phone wallet', () => {
  let desk: WalletConnectDesk;
  let wallet: TestWallet;
  const buyer = () => chain.accounts.buyers[1]!;
  const snapshot = async () => ({
    balance: await chain.balanceOf(buyer().address),
    paid: peer.paidRequests.length,
    rows: ledgerRows(desk.dataDir).length,
  });

  beforeAll(async () => {
    await chain.fund(buyer().address, 1_000_000n);
    wallet = await startTestWallet({ relayUrl: relay.url, signer: buyer().account, chains: [BASE_SEPOLIA] });
    desk = await openWalletConnectDesk({
      browser,
      serviceUrl: peer.url,
      rpcUrl: chain.rpcUrl,
      relayUrl: relay.url,
    });
    await wallet.pair(await showPairingLink(desk.page));
    await desk.page.getByText(/WalletConnect wallet .* connected\./).waitFor();
  });

  afterAll(async () => {
    await wallet?.stop();
    await desk?.close();
  });

  it('refuses to sign: nothing is sent, and the purchase says the wallet refused', async () => {
    const before = await snapshot();
    const asked = wallet.requests.length;
    wallet.answer = 'reject';
    await pay(desk.page, 'alice_intel', 3);
    expect(await outcomeText(desk.page)).toBe('The wallet refused to sign, so nothing was paid.');
    wallet.answer = 'sign';
    expect(wallet.requests.slice(asked).map((r) => r.method)).toEqual(['eth_signTypedData_v4']);
    await expectNothingPaid(desk, buyer().address, before);
  });

  it('is asked once for a double click on Pay, and pays once', async () => {
    const before = await snapshot();
    const asked = wallet.typedData.length;
    await pay(desk.page, 'alice_intel', 3, { double: true });
    expect(await outcomeText(desk.page)).toContain('Bought 3 reports for $0.03.');
    // The dialog closes on the first click, so the second never starts a purchase.
    const signed = wallet.typedData.slice(asked);
    expect(signed).toHaveLength(1);
    // That one authorization reached the chain, and the ledger holds it.
    const used = await Promise.all(
      signed.map((t) => chain.authorizationState(buyer().address, t.message['nonce'] as Hex)),
    );
    expect(used.filter(Boolean)).toHaveLength(1);
    expect(await chain.balanceOf(buyer().address)).toBe(before.balance - 30_000n);
    expect(peer.paidRequests).toHaveLength(before.paid + 1);
    const rows = ledgerRows(desk.dataDir);
    expect(rows).toHaveLength(before.rows + 1);
    expect(rows.at(-1)!.nonce).toBe(signed[used.indexOf(true)]!.message['nonce']);
  });

  it('pays after the relay dropped every socket and came back on its port', async () => {
    const before = await snapshot();
    const opened = relay.connections();
    await relay.drop();
    await relay.restart();
    await pay(desk.page, 'bob_osint', 4);
    expect(await outcomeText(desk.page)).toContain('Bought 4 reports for $0.04.');
    expect(await chain.balanceOf(buyer().address)).toBe(before.balance - 40_000n);
    // Both clients dialled the relay again.
    expect(relay.connections()).toBeGreaterThanOrEqual(opened + 2);
  });

  it('ends the session while the desk waits for its signature: nothing is sent, the purchase says so', async () => {
    const before = await snapshot();
    const asked = wallet.requests.length;
    wallet.answer = 'hold';
    await pay(desk.page, 'carol_watch', 6);
    const request = await wallet.nextRequest('eth_signTypedData_v4', asked);
    await wallet.disconnect(request.topic);
    expect(await outcomeText(desk.page)).toBe(
      'The wallet ended its session before signing, so nothing was paid.',
    );
    // Settings no longer shows it connected, and offers pairing again.
    await desk.page.getByRole('link', { name: 'Settings', exact: true }).click();
    await desk.page.getByRole('button', { name: 'Connect with WalletConnect' }).waitFor();
    await expectNothingPaid(desk, buyer().address, before);
    // A signature for that request, given late, is refused by core and pays nothing.
    const late = await wallet.signTypedData(wallet.typedData.at(-1)!);
    const purchaseId = await lastAbandonedPurchase(desk);
    await expect(
      desk.desk.core.handlers['purchase.submitSignature']({ purchaseId, signature: late }),
    ).rejects.toMatchObject({ code: 'purchase_unknown' });
    await expectNothingPaid(desk, buyer().address, before);
    expect(getAddress(wallet.typedData.at(-1)!.message['from']!)).toBe(buyer().address);
  });
});

/** The id of the purchase the page last asked the wallet to sign, as the page's RPC calls carried it. */
async function lastAbandonedPurchase(desk: WalletConnectDesk): Promise<string> {
  const id = desk.abandoned.at(-1);
  if (!id) throw new Error('The page abandoned no signature request.');
  return id;
}
