/**
 * Several stacks in one process. Every demo chain has chain id 31337 and the same deployer, so the facilitator's
 * nonces must be counted per chain: a stack started after another one, or beside it, deploys, mints and settles
 * on its own fresh chain instead of waiting for a nonce that chain never reaches.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { reportMenuSchema } from '../../src/shared/wire';
import { buyer, getJson, signAuthorization, tokenBalance, v2Payment } from './helpers';

const UNIT = 10_000n;
const running = new Set<Stack>();

async function start(): Promise<Stack> {
  const stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 1, maxReportsPerHandle: 2 },
    buyerCount: 1,
  });
  running.add(stack);
  return stack;
}

async function stop(stack: Stack): Promise<void> {
  running.delete(stack);
  await stack.stop();
}

afterEach(async () => {
  await Promise.all([...running].map(stop));
});

/** Buys one report with buyer 0 and checks the charge left that buyer's balance on this stack's chain. */
async function buyOneReport(stack: Stack): Promise<void> {
  const shelf = await getJson(`${stack.baseUrl}/api/intel/list`);
  const handle = (shelf.body['entries'] as { username: string }[])[0]?.username ?? '';
  const menu = reportMenuSchema.parse(
    (await getJson(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).body,
  );
  const url = `${stack.baseUrl}/api/intel/reports?username=${handle}&select=range&ids=${menu.reports[0]?.id}`;
  const payer = buyer(stack, 0).address;
  const before = await tokenBalance(stack, payer);
  const signed = await signAuthorization(stack, 0, UNIT);
  const paid = await getJson(url, { 'PAYMENT-SIGNATURE': v2Payment(stack, signed, UNIT) });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  expect(paid.body['chargedUsd']).toBe(0.01);
  expect(await tokenBalance(stack, payer)).toBe(before - UNIT);
}

describe('stacks in one process', () => {
  it('a stack started after another one stopped deploys on its fresh chain and settles a purchase', async () => {
    const first = await start();
    await buyOneReport(first);
    await stop(first);

    const second = await start();
    expect(second.rpcUrl).not.toBe(first.rpcUrl);
    await buyOneReport(second);
  });

  it('two stacks running at the same time each settle on their own chain', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect(a.rpcUrl).not.toBe(b.rpcUrl);
    // Each deployment used the deployer's first nonce on its own chain, so both tokens sit at one address.
    expect(a.asset).toBe(b.asset);

    const payer = buyer(a, 0).address;
    expect(buyer(b, 0).address).toBe(payer);
    const onB = await tokenBalance(b, payer);
    await buyOneReport(a);
    expect(await tokenBalance(b, payer)).toBe(onB);

    await buyOneReport(b);
    await stop(a);
    await buyOneReport(b);
    expect(await tokenBalance(b, payer)).toBe(onB - 2n * UNIT);
  });
});
