/**
 * The demo chain keeps time like Base: a block every 2 s whether or not anyone pays, so a payment dated by
 * the wall clock is valid at the latest block however long the demo sat idle; a transaction still gets its
 * block at once. A chain that mines only per transaction is an explicit choice of the tests that need it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, http } from 'viem';
import { startStack, type Stack } from '../../src/service/stack';
import { BASE_BLOCK_TIME_SECONDS } from '../../src/service/chain/demo-chain';
import { anvilCall } from './chain-time';
import { buyer } from './helpers';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 1, minReportsPerHandle: 1, maxReportsPerHandle: 1 } });
});
afterAll(async () => {
  await stack?.stop();
});

describe('the demo chain', () => {
  it('makes a block every 2 s without transactions, stamped with the wall clock', async () => {
    expect(stack.chain.mining).toBe('interval');
    const { publicClient } = stack.chain.clients;
    const start = await publicClient.getBlockNumber({ cacheTime: 0 });
    await expect
      .poll(() => publicClient.getBlockNumber({ cacheTime: 0 }), {
        timeout: 4 * BASE_BLOCK_TIME_SECONDS * 1000,
      })
      .toBeGreaterThanOrEqual(start + 2n);
    const latest = await publicClient.getBlock({ blockTag: 'latest' });
    const previous = await publicClient.getBlock({ blockNumber: latest.number - 1n });
    expect(latest.transactions).toEqual([]);
    expect(previous.transactions).toEqual([]);
    expect(Number(latest.timestamp - previous.timestamp)).toBe(BASE_BLOCK_TIME_SECONDS);
    const wall = Math.floor(Date.now() / 1000);
    expect(Number(latest.timestamp)).toBeGreaterThanOrEqual(wall - BASE_BLOCK_TIME_SECONDS - 1);
    expect(Number(latest.timestamp)).toBeLessThanOrEqual(wall);
  });

  it('gives each transaction its own block at once, not the next interval block', async () => {
    const wallet = createWalletClient({
      account: buyer(stack, 0),
      chain: stack.chain.clients.publicClient.chain,
      transport: http(stack.rpcUrl),
    });
    const first = await wallet.sendTransaction({ to: stack.payTo, value: 1n });
    const second = await wallet.sendTransaction({ to: stack.payTo, value: 1n });
    const { publicClient } = stack.chain.clients;
    const receipts = await Promise.all(
      [first, second].map((hash) => publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })),
    );
    expect(receipts[1]!.blockNumber).toBeGreaterThan(receipts[0]!.blockNumber);
  });

  it('mines per transaction only, with no interval blocks, when a stack asks for it', async () => {
    expect(await anvilCall(stack, 'anvil_getAutomine')).toBe(false);
    const auto = await startStack({ mining: 'auto', seed: { handles: 1 } });
    try {
      expect(auto.chain.mining).toBe('auto');
      expect(await anvilCall(auto, 'anvil_getAutomine')).toBe(true);
    } finally {
      await auto.stop();
    }
  });
});
