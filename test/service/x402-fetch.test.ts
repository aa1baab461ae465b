/**
 * Generic x402 clients work unchanged (spec 5.4): the official @x402/fetch + @x402/evm client buys as it is,
 * the payment it makes settles from any of the service's payment headers, and the buyer pays exactly the charge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment, x402Client, x402HTTPClient, decodePaymentResponseHeader } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { ExactEvmSchemeV1 } from '@x402/evm/v1';
import type { PaymentRequired } from '@x402/core/types';
import type { PrivateKeyAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import {
  paidSuccessSchema,
  paymentChallengeSchema,
  reportMenuSchema,
  shelfListSchema,
  type ReportMenu,
} from '../../src/shared/wire';
import { buyer, tokenBalance } from './helpers';

let stack: Stack;
let handle: string;
let menu: ReportMenu;

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 8, maxReportsPerHandle: 6 } });
  const shelf = shelfListSchema.parse(await (await fetch(`${stack.baseUrl}/api/intel/list`)).json());
  handle = shelf.entries[0]?.username ?? '';
  menu = reportMenuSchema.parse(
    await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json(),
  );
});
afterAll(async () => {
  await stack?.stop();
});

function officialClient(account: PrivateKeyAccount): x402Client {
  // The official client pays only known stablecoins by default; the demo token must be allowed explicitly.
  return new x402Client().register('eip155:*', new ExactEvmScheme(account)).setSpendControls(false);
}

/** The settlement receipt header names a successful transaction on the demo chain. */
async function expectSettled(headerValue: string | null): Promise<void> {
  const settlement = decodePaymentResponseHeader(headerValue ?? '');
  expect(settlement).toMatchObject({ success: true, network: stack.network });
  expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
  const receipt = await stack.chain.clients.publicClient.getTransactionReceipt({
    hash: settlement.transaction as `0x${string}`,
  });
  expect(receipt.status).toBe('success');
}

describe('the official @x402/fetch client', () => {
  it('buys every report of a handle, unchanged, and pays exactly the charge', async () => {
    const account = buyer(stack, 0);
    const sent: Headers[] = [];
    // A transparent spy: it records what the official client sends and passes the request on untouched.
    const recordingFetch: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      sent.push(new Headers(request.headers));
      return fetch(request);
    };
    const paidFetch = wrapFetchWithPayment(recordingFetch, officialClient(account));
    const before = await tokenBalance(stack, account.address);
    const payeeBefore = await tokenBalance(stack, stack.payTo);

    const response = await paidFetch(`${stack.baseUrl}/api/intel/reports?username=${handle}&select=all`, {
      headers: { Accept: 'application/json' },
    });
    expect(response.status).toBe(200);
    const body = paidSuccessSchema.parse(await response.json());
    expect(body.reportCount).toBe(menu.reportCount);
    expect(body.reports.map((r) => r.id)).toEqual(menu.reports.map((r) => r.id));
    const charge = 10_000n * BigInt(menu.reportCount);
    expect(body.chargedUsd).toBeCloseTo(Number(charge) / 1e6, 9);
    await expectSettled(response.headers.get('PAYMENT-RESPONSE'));
    expect(response.headers.get('X-Payment-Response')).toBe(response.headers.get('PAYMENT-RESPONSE'));

    // It read the v2 challenge from PAYMENT-REQUIRED and paid once, in its own v2 header.
    expect(sent).toHaveLength(2);
    expect(sent[0]?.get('PAYMENT-SIGNATURE')).toBeNull();
    expect(sent[1]?.get('PAYMENT-SIGNATURE')).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(await tokenBalance(stack, account.address)).toBe(before - charge);
    expect(await tokenBalance(stack, stack.payTo)).toBe(payeeBefore + charge);
  });

  for (const header of ['X-Payment', 'X-402-Payment'] as const) {
    it(`settles the official client's own payment sent in ${header}`, async () => {
      const account = buyer(stack, 1);
      const client = officialClient(account);
      const http = new x402HTTPClient(client);
      const ids = menu.reports.slice(0, 2).map((r) => r.id);
      const url = `${stack.baseUrl}/api/intel/reports?username=${handle}&select=range&ids=${ids.join(',')}`;
      const challenge = await fetch(url, { headers: { Accept: 'application/json' } });
      expect(challenge.status).toBe(402);
      const required = http.getPaymentRequiredResponse(
        (name) => challenge.headers.get(name),
        await challenge.json(),
      );
      const payload = await client.createPaymentPayload(required);
      const encoded = Object.values(http.encodePaymentSignatureHeader(payload))[0] ?? '';
      const before = await tokenBalance(stack, account.address);

      const response = await fetch(url, { headers: { Accept: 'application/json', [header]: encoded } });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(paidSuccessSchema.parse(await response.json())).toMatchObject({
        reportCount: 2,
        chargedUsd: 0.02,
      });
      await expectSettled(response.headers.get('X-Payment-Response'));
      expect(await tokenBalance(stack, account.address)).toBe(before - 20_000n);
    });
  }

  it('refuses its v1 payment for network "base": that is signed for chain 8453, never the demo chain', async () => {
    const account = buyer(stack, 2);
    const url = `${stack.baseUrl}/api/intel/reports?username=${handle}&select=range&ids=${menu.reports[0]!.id}`;
    const challenge = paymentChallengeSchema.parse(await (await fetch(url)).json());
    const offered = challenge.accepts[0]!;
    const v1Required = {
      x402Version: 1,
      accepts: [
        {
          scheme: 'exact',
          network: 'base',
          maxAmountRequired: offered.amount,
          resource: url,
          description: 'one report',
          mimeType: 'application/json',
          payTo: offered.payTo,
          maxTimeoutSeconds: 300,
          asset: offered.asset,
          extra: { name: 'USD Coin', version: '2' },
        },
      ],
    } as unknown as PaymentRequired;
    const client = new x402Client().registerV1('base', new ExactEvmSchemeV1(account)).setSpendControls(false);
    const http = new x402HTTPClient(client);
    const headers = http.encodePaymentSignatureHeader(await client.createPaymentPayload(v1Required));
    expect(Object.keys(headers)).toEqual(['X-PAYMENT']);
    const before = await tokenBalance(stack, account.address);
    const response = await fetch(url, { headers: { Accept: 'application/json', ...headers } });
    const body = (await response.json()) as Record<string, unknown>;
    expect([response.status, body['error']]).toEqual([402, 'invalid_signature']);
    expect(await tokenBalance(stack, account.address)).toBe(before);
  });
});
