import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { startStack, type Stack } from '../../src/service/stack';
import { paidSuccessSchema, reportMenuSchema, shelfListSchema } from '../../src/shared/wire';
import { buyer, tokenBalance } from './helpers';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 8, maxReportsPerHandle: 6 } });
});
afterAll(async () => {
  await stack?.stop();
});

describe('the official @x402/fetch client', () => {
  it('buys every report of a handle through the standard header, unchanged, and pays exactly the charge', async () => {
    const account = buyer(stack, 0);
    const client = new x402Client().register('eip155:*', new ExactEvmScheme(account));
    client.setSpendControls(false);
    const paidFetch = wrapFetchWithPayment(fetch, client);

    const shelf = shelfListSchema.parse(await (await fetch(`${stack.baseUrl}/api/intel/list`)).json());
    const handle = shelf.entries[0]?.username ?? '';
    const menu = reportMenuSchema.parse(
      await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json(),
    );
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

    const settlement = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE') ?? '');
    expect(settlement.success).toBe(true);
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await stack.chain.clients.publicClient.getTransactionReceipt({
      hash: settlement.transaction as `0x${string}`,
    });
    expect(receipt.status).toBe('success');

    expect(await tokenBalance(stack, account.address)).toBe(before - charge);
    expect(await tokenBalance(stack, stack.payTo)).toBe(payeeBefore + charge);
  });
});
