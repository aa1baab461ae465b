/**
 * The app in browser mode buys from a seller built with the official x402 v2 packages (test/interop), in its
 * 'stock' and 'extras' forms, as a person would: a handle opened from the Shelf, the live price, all reports,
 * a date range and chosen ids, the confirmation, then reading what was bought. Each purchase is checked on the
 * chain (the buyer paid exactly the price, the payee got it, one paid request reached the peer) and in the
 * ledger (completed, with the transaction). The desk runs NON-demo, on the loopback chain's RPC only, in a
 * Chromium that can reach loopback only. Each test opens its own desk with its own buyer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Hex } from 'viem';
import { QUOTE_FACT_LABELS } from '../src/shared/quote-facts';
import { ledgerRows } from '../test/core/helpers';
import {
  PAYMENT_HEADER_NAMES,
  startBaseSepolia,
  startInteropPeer,
  type AnvilTestAccount,
  type BaseSepolia,
  type InteropPeer,
  type PeerForm,
} from '../test/interop/fixtures';
import { day as formatDay } from '../src/renderer/format';
import { launchLoopbackOnlyChromium, shot } from './browser';
import { filterAndOpen, openShelf, waitForPrice } from './flow';
import { openPeerDesk, type PeerDesk } from './peer-desk';

/** The peer's default unit price, $0.01, in USDC base units. */
const UNIT = 10_000n;

/** Every fact a challenge may state, in the words the confirmation uses. */
const FACT_WORDS = Object.values(QUOTE_FACT_LABELS);

let browser: Browser;

beforeAll(async () => {
  browser = await launchLoopbackOnlyChromium();
});

afterAll(async () => {
  await browser?.close();
});

interface Purchase {
  handle: string;
  /** The reports bought, by id. */
  ids: string[];
  /** The newest of them, which "Read now" opens, and its place among the handle's reports. */
  newest: { id: string; of: number };
}

const usdOf = (count: number) => `$${(count / 100).toFixed(2)}`;

describe.each<PeerForm>(['stock', 'extras'])('the app buying from the official-x402 peer (%s)', (form) => {
  let chain: BaseSepolia;
  let peer: InteropPeer;
  let opened: PeerDesk | null = null;

  beforeAll(async () => {
    chain = await startBaseSepolia();
    peer = await startInteropPeer({ chain, form });
  });

  afterEach(async () => {
    await opened?.close();
    opened = null;
  });

  afterAll(async () => {
    await peer?.stop();
    await chain?.stop();
  });

  /** A desk of its own for one test, its buyer funded with 1 USDC when it is to buy. */
  async function deskFor(buyer: AnvilTestAccount, fund: boolean): Promise<PeerDesk> {
    if (fund) await chain.fund(buyer.address, 1_000_000n);
    opened = await openPeerDesk({
      browser,
      serviceUrl: peer.url,
      rpcUrl: chain.rpcUrl,
      buyerKey: buyer.key,
    });
    return opened;
  }

  /**
   * Confirms the price shown and pays it, then checks the chain, the peer and the ledger, and reads the newest
   * report bought. The choice is already made on the open menu.
   */
  async function payAndCheck(desk: PeerDesk, buyer: AnvilTestAccount, bought: Purchase, name: string) {
    const { page, dataDir } = desk;
    const count = bought.ids.length;
    const usd = usdOf(count);
    const amount = UNIT * BigInt(count);
    await waitForPrice(page, usd);

    const buyerBefore = await chain.balanceOf(buyer.address);
    const payeeBefore = await chain.balanceOf(peer.payTo);
    const paidBefore = peer.paidRequests.length;
    const rowsBefore = ledgerRows(dataDir).length;

    await page.getByRole('button', { name: `Buy ${count} reports for ${usd}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('[data-testid="confirm-amount"]', { hasText: usd }).waitFor();
    expect(await dialog.locator('[data-testid="confirm-amount"]').textContent()).toBe(
      `Pay exactly ${usd} (${(count / 100).toFixed(2)} USDC) for ${count} reports of @${bought.handle}?`,
    );
    const facts = dialog.locator('[data-testid="confirm-facts"]');
    if (form === 'stock') {
      // The stock middleware states none of the spec's facts: the dialog says Intel Desk derived them all.
      const lines = await facts.allTextContents();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^The service stated none of the spec's price facts\. Intel Desk derived the report count from your selection and the free menu, the unit price as the amount divided by that count and the .* from the payment option and your request\.$/,
      );
      for (const words of FACT_WORDS) expect(lines[0]).toContain(words);
    } else {
      // The spec's challenge states every fact: nothing is said to be derived (and one option, so no option line).
      expect(await facts.count()).toBe(0);
      expect(await dialog.textContent()).not.toContain('derived');
    }
    await shot(page, `interop-${form}-${name}-confirm`);
    await dialog.getByRole('button', { name: `Pay ${usd}` }).click();
    const outcome = page.locator('[data-testid="purchase-outcome"]');
    await outcome.waitFor({ timeout: 30_000 });
    const said = (await outcome.textContent()) ?? '';
    expect(said).toContain(`Bought ${count} reports for ${usd}.`);

    // The chain: exactly the price left the buyer and reached the payee.
    expect(await chain.balanceOf(buyer.address)).toBe(buyerBefore - amount);
    expect(await chain.balanceOf(peer.payTo)).toBe(payeeBefore + amount);
    // The peer: one paid request, carrying the payment in all three headers, answered 200 with a receipt.
    const paid = peer.paidRequests.slice(paidBefore);
    expect(paid).toHaveLength(1);
    expect([...paid[0]!.paymentHeaders].sort()).toEqual([...PAYMENT_HEADER_NAMES].sort());
    expect(paid[0]!.status).toBe(200);
    expect(paid[0]!.paymentResponse).toBeTruthy();

    // The ledger: one new row, completed, with the settlement's transaction and the nonce the chain used.
    const rows = ledgerRows(dataDir);
    expect(rows).toHaveLength(rowsBefore + 1);
    const row = rows[rows.length - 1]!;
    expect(row).toMatchObject({
      state: 'completed',
      paid_with: 'payment',
      handle: bought.handle,
      amount: amount.toString(),
      report_count: count,
      network: chain.network,
      payer: buyer.address,
      pay_to: peer.payTo,
      service_url: peer.url,
    });
    expect(row.asset.toLowerCase()).toBe(chain.usdc.toLowerCase());
    expect(row.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const txHash = row.tx_hash as Hex;
    // The outcome offers the receipt, which names the settlement's transaction.
    await page.getByRole('button', { name: 'View receipt' }).click();
    const receiptDialog = page.getByRole('dialog', { name: `Receipt for @${bought.handle}` });
    await receiptDialog.waitFor();
    expect(await receiptDialog.textContent()).toContain(txHash);
    await receiptDialog.getByRole('button', { name: 'Close' }).click();
    await receiptDialog.waitFor({ state: 'hidden' });
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: txHash });
    expect(receipt.status).toBe('success');
    expect(receipt.to?.toLowerCase()).toBe(chain.usdc.toLowerCase());
    expect(await chain.authorizationState(buyer.address, row.nonce as Hex)).toBe(true);
    expect((JSON.parse(row.report_ids) as unknown as string[]).slice().sort()).toEqual(
      [...bought.ids].sort(),
    );

    // Reading: the newest report bought, with the peer's narrative.
    await page.getByRole('button', { name: 'Read now' }).click();
    await page.getByRole('heading', { name: /^Report of / }).waitFor();
    const index = Number(bought.newest.id.split('-r').pop());
    await page
      .locator('section[aria-label="Narrative"]', {
        hasText: `Week ${index} of ${bought.newest.of} for @${bought.handle}`,
      })
      .waitFor();
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    return row;
  }

  async function openHandle(page: Page, handle: string) {
    await openShelf(page);
    await filterAndOpen(page, handle);
  }

  it('buys all reports of @alice_intel, lists the purchase, and reads one', async () => {
    const buyer = chain.accounts.buyers[0]!;
    const desk = await deskFor(buyer, true);
    const { page } = desk;
    await openHandle(page, 'alice_intel');
    expect(await page.locator('table[aria-label="Reports"] tbody tr').count()).toBe(3);
    const row = await payAndCheck(
      desk,
      buyer,
      {
        handle: 'alice_intel',
        ids: ['alice_intel-r1', 'alice_intel-r2', 'alice_intel-r3'],
        newest: { id: 'alice_intel-r3', of: 3 },
      },
      'all',
    );
    expect(peer.paidRequests.at(-1)!.url).toContain('select=all');

    // The Purchases screen tells the same: completed, $0.03, the transaction as the receipt.
    await page.getByRole('link', { name: 'Purchases', exact: true }).click();
    const listed = page.locator('table[aria-label="Purchases"] tbody tr', { hasText: '@alice_intel' });
    await listed.locator('.pill-completed').waitFor();
    expect(await page.locator('table[aria-label="Purchases"] tbody tr').count()).toBe(1);
    expect(await listed.locator('[data-testid="charged"]').textContent()).toContain('$0.03');
    expect(await listed.locator('[data-testid="receipt"]').getAttribute('title')).toBe(row.tx_hash);
  });

  it('buys a date range of @bob_osint and reads the newest of it', async () => {
    const buyer = chain.accounts.buyers[1]!;
    const desk = await deskFor(buyer, true);
    const { page } = desk;
    await openHandle(page, 'bob_osint');
    // Reports 2 and 3 of 4: created 2026-01-12 and 2026-01-19.
    await page.getByLabel('A date range').check();
    await page.getByLabel('From date').fill('2026-01-12');
    await page.getByLabel('To date').fill('2026-01-19');
    await payAndCheck(
      desk,
      buyer,
      {
        handle: 'bob_osint',
        ids: ['bob_osint-r2', 'bob_osint-r3'],
        newest: { id: 'bob_osint-r3', of: 4 },
      },
      'range',
    );
    const sent = new URL(peer.paidRequests.at(-1)!.url, peer.url).searchParams;
    expect(sent.get('select')).toBe('range');
    expect(sent.get('from')).toBe('2026-01-12T00:00:00.000Z');
    expect(sent.get('to')).toBe('2026-01-19T23:59:59.999Z');
  });

  it('buys reports of @carol_watch chosen by their checkboxes and reads the newest of them', async () => {
    const buyer = chain.accounts.buyers[2]!;
    const desk = await deskFor(buyer, true);
    const { page } = desk;
    await openHandle(page, 'carol_watch');
    // Individual reports starts with nothing ticked; tick all, then untick all but reports 2, 4 and 5.
    await page.getByRole('radio', { name: 'Individual reports' }).check();
    await page.getByRole('button', { name: 'Tick all' }).click();
    for (const day of ['2026-01-05', '2026-01-19', '2026-02-09']) {
      await page
        .getByRole('checkbox', { name: new RegExp(`^Choose report of ${formatDay(day)} \\(`) })
        .uncheck();
    }
    await payAndCheck(
      desk,
      buyer,
      {
        handle: 'carol_watch',
        ids: ['carol_watch-r2', 'carol_watch-r4', 'carol_watch-r5'],
        newest: { id: 'carol_watch-r5', of: 6 },
      },
      'ids',
    );
    const sent = new URL(peer.paidRequests.at(-1)!.url, peer.url).searchParams;
    expect(sent.get('select')).toBe('range');
    expect((sent.get('ids') ?? '').split(',').sort()).toEqual([
      'carol_watch-r2',
      'carol_watch-r4',
      'carol_watch-r5',
    ]);
  });

  it("shows the loopback chain's RPC in use under Settings → Chain RPC", async () => {
    const buyer = chain.accounts.buyers[3]!;
    const desk = await deskFor(buyer, false);
    const { page } = desk;
    // A live quote names the network (eip155:84532); the RPC in use is this run's, not Base Sepolia's public one.
    await openHandle(page, 'alice_intel');
    await waitForPrice(page, '$0.03');
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const inUse = page.locator('[data-testid="chain-rpc-in-use"]');
    await inUse.filter({ hasText: chain.rpcUrl }).waitFor();
    expect(await inUse.textContent()).toBe(`In use for Base Sepolia: ${chain.rpcUrl} (given for this run)`);
    expect(await page.getByRole('textbox', { name: 'Chain RPC URL' }).inputValue()).toBe('');
    const status = await desk.desk.core.handlers['wallet.status']({
      token: { network: chain.network, asset: chain.usdc },
    });
    expect(status.chainRpc).toEqual({ url: chain.rpcUrl, source: 'run' });
    await inUse.scrollIntoViewIfNeeded();
    await shot(page, `interop-${form}-settings-chain-rpc`);
  });
});
