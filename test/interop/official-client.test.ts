/**
 * The official x402 client (@x402/fetch + @x402/evm) pays the interop peer — built with the official middleware
 * and facilitator — on Base Sepolia (anvil), in both of the peer's forms: the buyer's balance falls and the
 * payee's rises by exactly the price, and exactly one paid request reaches the peer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { x402HTTPClient } from '@x402/fetch';
import type { Hex } from 'viem';
import {
  paidSuccessSchema,
  paymentChallengeSchema,
  reportMenuSchema,
  shelfListSchema,
} from '../../src/shared/wire';
import {
  BASE_SEPOLIA_USDC,
  officialBuyer,
  startBaseSepolia,
  startInteropPeer,
  type AnvilTestAccount,
  type BaseSepolia,
  type InteropPeer,
  type PeerForm,
} from './fixtures';

let chain: BaseSepolia;
const peers = {} as Record<PeerForm, InteropPeer>;

beforeAll(async () => {
  chain = await startBaseSepolia();
  peers.stock = await startInteropPeer({ chain, form: 'stock' });
  peers.extras = await startInteropPeer({
    chain,
    form: 'extras',
    facilitator: chain.accounts.facilitators[1],
  });
  for (const buyer of chain.accounts.buyers.slice(0, 2)) await chain.fund(buyer.address, 1_000_000n);
  await chain.fund(chain.accounts.buyers[2]!.address, 10_000n);
});
afterAll(async () => {
  await peers.stock?.stop();
  await peers.extras?.stop();
  await chain?.stop();
});

const json = { headers: { Accept: 'application/json' } };

/** Pays `path` with the official client and checks the chain moved exactly the price, once. */
async function buy(peer: InteropPeer, buyer: AnvilTestAccount, path: string, expectedIds: string[]) {
  const official = officialBuyer(buyer.account);
  const paidBefore = peer.paidRequests.length;
  const before = await chain.balanceOf(buyer.address);
  const payeeBefore = await chain.balanceOf(peer.payTo);
  const response = await official.fetch(`${peer.url}${path}`, json);
  expect(response.status, await response.clone().text()).toBe(200);
  const body = paidSuccessSchema.parse(await response.json());
  expect(body.reports.map((r) => r.id)).toEqual(expectedIds);
  const price = 10_000n * BigInt(expectedIds.length);
  expect(body.chargedUsd).toBeCloseTo(Number(price) / 1e6, 9);

  const settlement = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE') ?? '');
  expect(settlement).toMatchObject({ success: true, network: 'eip155:84532', payer: buyer.address });
  const receipt = await chain.publicClient.getTransactionReceipt({ hash: settlement.transaction as Hex });
  expect(receipt.status).toBe('success');
  expect(await chain.balanceOf(buyer.address)).toBe(before - price);
  expect(await chain.balanceOf(peer.payTo)).toBe(payeeBefore + price);

  // The official client asked once, paid once in PAYMENT-SIGNATURE; the peer saw exactly that one payment.
  expect(official.sent.map((h) => h.get('PAYMENT-SIGNATURE') !== null)).toEqual([false, true]);
  expect(peer.paidRequests.length).toBe(paidBefore + 1);
  expect(peer.paidRequests.at(-1)).toMatchObject({ paymentHeaders: ['payment-signature'], status: 200 });
  return response;
}

describe.each(['stock', 'extras'] as const)('the %s peer', (form) => {
  const peer = () => peers[form];

  it('serves the free shelf and menus, newest first', async () => {
    const shelf = shelfListSchema.parse(await (await fetch(`${peer().url}/api/intel/list`)).json());
    expect(shelf.entries.map((e) => [e.username, e.reportCount])).toEqual([
      ['alice_intel', 3],
      ['bob_osint', 4],
      ['carol_watch', 6],
    ]);
    const menu = reportMenuSchema.parse(
      await (await fetch(`${peer().url}/api/intel/reports?username=@Bob_OSINT`)).json(),
    );
    expect(menu.reports.map((r) => r.id)).toEqual([
      'bob_osint-r4',
      'bob_osint-r3',
      'bob_osint-r2',
      'bob_osint-r1',
    ]);
  });

  it('refuses a range without bounds and a selection matching nothing before asking for payment', async () => {
    for (const [query, status, error] of [
      ['username=alice_intel&select=range', 400, 'range_requires_from_to_or_ids'],
      ['username=alice_intel&select=range&ids=nope', 404, 'no_matching_reports'],
      ['username=nobody&select=all', 404, 'unknown_handle'],
    ] as const) {
      const response = await fetch(`${peer().url}/api/intel/reports?${query}`, json);
      expect([response.status, ((await response.json()) as { error: string }).error]).toEqual([
        status,
        error,
      ]);
      expect(response.headers.get('PAYMENT-REQUIRED')).toBeNull();
    }
  });

  it('challenges in PAYMENT-REQUIRED, priced at unit price × matched reports', async () => {
    const path = '/api/intel/reports?username=carol_watch&select=range&from=2026-01-13&to=2026-02-03';
    const response = await fetch(`${peer().url}${path}`, json);
    expect(response.status).toBe(402);
    const challenge = decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED') ?? '');
    expect(challenge.x402Version).toBe(2);
    expect(challenge.accepts).toEqual([
      expect.objectContaining({
        scheme: 'exact',
        network: 'eip155:84532',
        asset: BASE_SEPOLIA_USDC,
        amount: '30000',
        payTo: peer().payTo,
        extra: expect.objectContaining({ name: 'USDC', version: '2' }),
      }),
    ]);
    const body: unknown = await response.json();
    if (form === 'stock') {
      expect(body).toEqual({});
    } else {
      const parsed = paymentChallengeSchema.parse(body);
      expect(parsed.accepts).toEqual(challenge.accepts);
      expect(parsed.extensions).toEqual({
        chainId: 84532,
        tokenDecimals: 6,
        unitPriceUsd: 0.01,
        reportCount: 3,
        select: 'range',
        resource: path,
      });
    }
  });

  it('is paid by the official client for select=all, a date range and ids', async () => {
    const buyer = chain.accounts.buyers[form === 'stock' ? 0 : 1]!;
    const all = await buy(peer(), buyer, '/api/intel/reports?username=alice_intel&select=all', [
      'alice_intel-r3',
      'alice_intel-r2',
      'alice_intel-r1',
    ]);
    if (form === 'extras') {
      expect(all.headers.get('X-Payment-Response')).toBe(all.headers.get('PAYMENT-RESPONSE'));
    } else {
      expect(all.headers.get('X-Payment-Response')).toBeNull();
    }
    await buy(
      peer(),
      buyer,
      '/api/intel/reports?username=carol_watch&select=range&from=2026-01-13&to=2026-02-03',
      ['carol_watch-r5', 'carol_watch-r4', 'carol_watch-r3'],
    );
    await buy(
      peer(),
      buyer,
      '/api/intel/reports?username=bob_osint&select=range&ids=bob_osint-r1,bob_osint-r3',
      ['bob_osint-r3', 'bob_osint-r1'],
    );
  });

  it("answers a payer too poor to pay with a 402 naming the facilitator's reason; no money moves", async () => {
    const buyer = chain.accounts.buyers[2]!;
    const official = officialBuyer(buyer.account);
    const paidBefore = peer().paidRequests.length;
    const payeeBefore = await chain.balanceOf(peer().payTo);
    const response = await official.fetch(
      `${peer().url}/api/intel/reports?username=alice_intel&select=all`,
      json,
    );
    expect(response.status).toBe(402);
    const challenge = decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED') ?? '');
    expect(challenge.error).toBe('invalid_exact_evm_insufficient_balance');
    expect(peer().paidRequests.length).toBe(paidBefore + 1);
    expect(await chain.balanceOf(buyer.address)).toBe(10_000n);
    expect(await chain.balanceOf(peer().payTo)).toBe(payeeBefore);
  });
});

describe('payment headers', () => {
  /** The official client's own v2 payment for `url`, encoded, without sending it. */
  async function officialPayment(buyer: AnvilTestAccount, url: string): Promise<string> {
    const { client } = officialBuyer(buyer.account);
    const http = new x402HTTPClient(client);
    const challenge = await fetch(url, json);
    const required = http.getPaymentRequiredResponse((name) => challenge.headers.get(name));
    const payload = await client.createPaymentPayload(required);
    return Object.values(http.encodePaymentSignatureHeader(payload))[0] ?? '';
  }

  for (const header of ['X-Payment', 'X-402-Payment'] as const) {
    it(`the extras peer settles a payment sent in ${header} and mirrors the receipt`, async () => {
      const buyer = chain.accounts.buyers[1]!;
      const url = `${peers.extras.url}/api/intel/reports?username=alice_intel&select=range&ids=alice_intel-r2`;
      const encoded = await officialPayment(buyer, url);
      const before = await chain.balanceOf(buyer.address);
      const response = await fetch(url, { headers: { Accept: 'application/json', [header]: encoded } });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(response.headers.get('X-Payment-Response')).toBe(response.headers.get('PAYMENT-RESPONSE'));
      expect(decodePaymentResponseHeader(response.headers.get('X-Payment-Response') ?? '').success).toBe(
        true,
      );
      expect(await chain.balanceOf(buyer.address)).toBe(before - 10_000n);
      expect(peers.extras.paidRequests.at(-1)?.paymentHeaders).toEqual([header.toLowerCase()]);
    });
  }

  for (const header of ['X-Payment', 'X-402-Payment'] as const) {
    it(`the stock peer reads no payment from ${header}: it challenges again and nothing moves`, async () => {
      const buyer = chain.accounts.buyers[0]!;
      const url = `${peers.stock.url}/api/intel/reports?username=alice_intel&select=range&ids=alice_intel-r2`;
      const encoded = await officialPayment(buyer, url);
      const before = await chain.balanceOf(buyer.address);
      const response = await fetch(url, { headers: { Accept: 'application/json', [header]: encoded } });
      expect(response.status).toBe(402);
      expect(decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED') ?? '').error).toBe(
        'Payment required',
      );
      expect(await chain.balanceOf(buyer.address)).toBe(before);
    });
  }
});
