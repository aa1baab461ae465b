/**
 * A wallet connected through WalletConnect pays, end to end, with the official clients on both sides: the desk's
 * connector (universal-provider) in Chromium, the test wallet (sign-client) in this process, and the test relay
 * between them, all on loopback. Base Sepolia on anvil, the interop peer as the seller. The person pairs from
 * Settings, buys, the wallet signs exactly the authorization the confirmation showed, and the chain and the
 * ledger agree.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { getAddress, type Address, type Hex } from 'viem';
import { ledgerRows } from '../test/core/helpers';
import {
  deployContractWallet,
  type AnvilTestAccount,
  type BaseSepolia,
  type InteropPeer,
} from '../test/interop/fixtures';
import type { TestRelay } from '../test/walletconnect/relay';
import { startTestWallet, type TestWallet } from '../test/walletconnect/wallet';
import { shot } from './browser';
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
const usdOf = (count: number) => `$${(count / 100).toFixed(2)}`;

let world: WalletConnectWorld | undefined;
let browser: Browser;
let chain: BaseSepolia;
let peer: InteropPeer;
let relay: TestRelay;
let opened: { desk: WalletConnectDesk; wallet: TestWallet } | null = null;

beforeAll(async () => {
  world = await startWalletConnectWorld();
  ({ browser, chain, peer, relay } = world);
});

afterEach(async () => {
  await opened?.wallet.stop();
  await opened?.desk.close();
  opened = null;
});

afterAll(async () => {
  await world?.stop();
});

interface PairOptions {
  /** A contract wallet the buyer owns: the session shares its address, and it pays. */
  contract?: Address;
  chains?: string[];
  clock?: boolean;
}

/** A desk and a wallet for one test, paired through the page; the payer holds 1 USDC. */
async function paired(
  buyer: AnvilTestAccount,
  options: PairOptions = {},
): Promise<{ desk: WalletConnectDesk; wallet: TestWallet }> {
  await chain.fund(options.contract ?? buyer.address, 1_000_000n);
  const wallet = await startTestWallet({
    relayUrl: relay.url,
    signer: buyer.account,
    chains: options.chains ?? [BASE_SEPOLIA],
    ...(options.contract ? { contract: options.contract } : {}),
  });
  const desk = await openWalletConnectDesk({
    browser,
    serviceUrl: peer.url,
    rpcUrl: chain.rpcUrl,
    relayUrl: relay.url,
    ...(options.clock ? { clock: true } : {}),
  });
  opened = { desk, wallet };
  const uri = await showPairingLink(desk.page);
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/);
  await shot(desk.page, 'walletconnect-pairing-code');
  await wallet.pair(uri);
  await desk.page.getByText(/WalletConnect wallet .* connected\./).waitFor();
  return opened;
}

/** Opens the handle and the confirmation for all its reports; resolves with what the dialog says. */
async function confirmAll(page: Page, handle: string, count: number): Promise<string> {
  await openShelf(page);
  await filterAndOpen(page, handle);
  await waitForPrice(page, usdOf(count));
  await page.getByRole('button', { name: `Buy ${count} reports for ${usdOf(count)}` }).click();
  const amount = page.getByRole('dialog').locator('[data-testid="confirm-amount"]');
  await amount.waitFor();
  return (await amount.textContent()) ?? '';
}

describe('paying through a wallet paired with WalletConnect', () => {
  it('pairs from the link under the QR code, signs exactly what was confirmed, and pays', async () => {
    const buyer = chain.accounts.buyers[0]!;
    const { desk, wallet } = await paired(buyer);
    const { page } = desk;
    const status = await desk.desk.core.handlers['wallet.status']({});
    expect(status).toMatchObject({ kind: 'external', address: buyer.address });

    const said = await confirmAll(page, 'alice_intel', 3);
    expect(said).toBe('Pay exactly $0.03 (0.03 USDC) for 3 reports of @alice_intel?');
    const buyerBefore = await chain.balanceOf(buyer.address);
    const payeeBefore = await chain.balanceOf(peer.payTo);
    await page.getByRole('button', { name: 'Pay $0.03' }).click();
    const outcome = page.locator('[data-testid="purchase-outcome"]');
    await outcome.waitFor({ timeout: 30_000 });
    expect(await outcome.textContent()).toContain('Bought 3 reports for $0.03.');
    await shot(page, 'walletconnect-purchase');
    // The panel names the wallet as connected, and says nothing of a lock Intel Desk does not hold.
    const panel = page.getByTestId('wallet-panel');
    await expect.poll(() => panel.textContent()).toContain('KindWalletConnect wallet');
    expect(await panel.getByTestId('wallet-state').count()).toBe(0);
    // Once bought, the menu says so: no earlier purchase left "on its way", every report owned.
    await page.getByTestId('unresolved-purchase').waitFor({ state: 'detached' });
    await page
      .locator('table[aria-label="Reports"] tbody tr', { hasText: 'Not owned' })
      .first()
      .waitFor({ state: 'detached' });

    // The wallet was asked once, for exactly the EIP-3009 authorization of the confirmed price.
    const asked = wallet.requests.filter((r) => r.method === 'eth_signTypedData_v4');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.chainId).toBe(BASE_SEPOLIA);
    expect(String(asked[0]!.params[0]).toLowerCase()).toBe(buyer.address.toLowerCase());
    const [typed] = wallet.typedData;
    expect(typed!.primaryType).toBe('TransferWithAuthorization');
    // Addresses as the challenge spelled them (any case): compared as addresses.
    const { verifyingContract, ...domain } = typed!.domain;
    expect(domain).toEqual({ name: 'USDC', version: '2', chainId: 84532 });
    expect(getAddress(verifyingContract)).toBe(chain.usdc);
    expect(getAddress(typed!.message['from']!)).toBe(buyer.address);
    expect(getAddress(typed!.message['to']!)).toBe(getAddress(peer.payTo));
    expect(typed!.message['value']).toBe((3n * UNIT).toString());
    expect(Number(typed!.message['validBefore'])).toBeGreaterThan(Number(typed!.message['validAfter']));

    // The chain and the ledger agree with what was signed.
    expect(await chain.balanceOf(buyer.address)).toBe(buyerBefore - 3n * UNIT);
    expect(await chain.balanceOf(peer.payTo)).toBe(payeeBefore + 3n * UNIT);
    const nonce = typed!.message['nonce'] as Hex;
    expect(await chain.authorizationState(buyer.address, nonce)).toBe(true);
    const rows = ledgerRows(desk.dataDir);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      state: 'completed',
      payer: buyer.address,
      pay_to: peer.payTo,
      amount: (3n * UNIT).toString(),
      nonce,
      network: BASE_SEPOLIA,
    });
    expect(rows[0]!.valid_before.toString()).toBe(typed!.message['validBefore']);

    // Nothing left loopback, and the page's policy refused nothing it needed.
    expect(desk.foreign).toEqual([]);
    expect(desk.violations).toEqual([]);
  });

  it('pays from a contract wallet: the desk checks its ERC-1271 signature on chain, the token settles it', async () => {
    const owner = chain.accounts.walletOwner;
    const contract = await deployContractWallet(chain, owner.account);
    const { desk, wallet } = await paired(owner, { contract });
    expect(await desk.desk.core.handlers['wallet.status']({})).toMatchObject({
      kind: 'external',
      address: contract,
    });
    const before = await chain.balanceOf(contract);
    await confirmAll(desk.page, 'bob_osint', 4);
    await desk.page.getByRole('button', { name: 'Pay $0.04' }).click();
    const outcome = desk.page.locator('[data-testid="purchase-outcome"]');
    await outcome.waitFor({ timeout: 30_000 });
    expect(await outcome.textContent()).toContain('Bought 4 reports for $0.04.');
    const [typed] = wallet.typedData;
    expect(getAddress(typed!.message['from']!)).toBe(contract);
    expect(await chain.balanceOf(contract)).toBe(before - 4n * UNIT);
    expect(await chain.authorizationState(contract, typed!.message['nonce'] as Hex)).toBe(true);
    expect(ledgerRows(desk.dataDir)[0]).toMatchObject({ state: 'completed', payer: contract });
  });

  it('refuses before asking a wallet paired on another network, and pays nothing', async () => {
    const buyer = chain.accounts.buyers[2]!;
    const { desk, wallet } = await paired(buyer, { chains: ['eip155:8453'] });
    const before = await chain.balanceOf(buyer.address);
    await confirmAll(desk.page, 'alice_intel', 3);
    await desk.page.getByRole('button', { name: 'Pay $0.03' }).click();
    const outcome = desk.page.locator('[data-testid="purchase-outcome"]');
    await outcome.waitFor({ timeout: 30_000 });
    expect(await outcome.textContent()).toBe(
      'The wallet is connected on Base, but this payment is on Base Sepolia. Switch the wallet to Base Sepolia, then disconnect and connect it again. Nothing was paid.',
    );
    expect(wallet.requests).toEqual([]);
    expect(await chain.balanceOf(buyer.address)).toBe(before);
    expect(ledgerRows(desk.dataDir)).toEqual([]);
  });

  it('stops waiting for a wallet that never answers, and a late signature pays nothing', async () => {
    const buyer = chain.accounts.buyers[3]!;
    const { desk, wallet } = await paired(buyer, { clock: true });
    const before = await chain.balanceOf(buyer.address);
    wallet.answer = 'hold';
    await confirmAll(desk.page, 'alice_intel', 3);
    await desk.page.getByRole('button', { name: 'Pay $0.03' }).click();
    const request = await wallet.nextRequest('eth_signTypedData_v4');
    // The page's clock moves on past the authorization's end; the desk's limit is the authorization's own.
    await desk.page.clock.fastForward('05:00');
    const outcome = desk.page.locator('[data-testid="purchase-outcome"]');
    await outcome.waitFor({ timeout: 30_000 });
    expect(await outcome.textContent()).toMatch(
      /^The wallet did not sign before the payment's authorization expired \(at .+\), so nothing was paid\. A signature it gives now is refused\.$/,
    );
    // The wallet signs after all: the page no longer listens, and core refuses the signature outright.
    const late = await wallet.sign(request);
    const purchaseId = desk.abandoned.at(-1)!;
    await expect(
      desk.desk.core.handlers['purchase.submitSignature']({ purchaseId, signature: late }),
    ).rejects.toMatchObject({ code: 'purchase_unknown' });
    expect(await chain.authorizationState(buyer.address, wallet.typedData[0]!.message['nonce'] as Hex)).toBe(
      false,
    );
    expect(await chain.balanceOf(buyer.address)).toBe(before);
    expect(ledgerRows(desk.dataDir)).toEqual([]);
  });
});
