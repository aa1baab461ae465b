/**
 * A purchase after the chain sat idle: on a chain that mines only per transaction the latest block's time
 * stands still, and the facilitator simulates the transfer at that old time. The desk must date the
 * authorization for that block, and refuse clearly when the block is too old for any payment window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCoreOptions } from '../../src/core';
import { balanceOf, deskWithWallet, failure, tempDir, buyAll } from './helpers';
import { idleFor, latestBlockTime } from '../service/chain-time';

let stack: Stack;
let handles: string[];
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  // A block per transaction and none in between: what the demo chain did before it mined on an interval.
  stack = await startStack({
    mining: 'auto',
    seed: { handles: 4, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
  });
  const lister = await deskFor(0);
  handles = (await lister.desk.handlers['shelf.list']({})).entries.map((entry) => entry.username);
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await stack?.stop();
});

async function deskFor(buyer: number, options: Partial<DeskCoreOptions> = {}) {
  const data = tempDir('desk-chain-time-');
  const opened = await deskWithWallet(stack, data.dir, buyer, options);
  cleanups.push(() => opened.desk.close(), data.remove);
  return opened;
}

describe('a purchase after the chain sat idle', () => {
  it('is dated for the latest block after 150 idle seconds, and pays exactly the quote once', async () => {
    const { desk, address } = await deskFor(0);
    await idleFor(stack, 150);
    expect(Math.floor(Date.now() / 1000) - (await latestBlockTime(stack))).toBeGreaterThanOrEqual(150);
    const before = await balanceOf(stack, address);
    const { quote, outcome } = await buyAll(desk, handles[0]!);
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    expect(await balanceOf(stack, address)).toBe(before - BigInt(quote.amount));
  });

  it('still buys when the idle chain is left behind while this computer’s clock moved on 75 s', async () => {
    const { desk, address } = await deskFor(1, { now: () => Date.now() + 75_000 });
    await idleFor(stack, 120);
    const before = await balanceOf(stack, address);
    const { quote, outcome } = await buyAll(desk, handles[1]!);
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    expect(await balanceOf(stack, address)).toBe(before - BigInt(quote.amount));
  });

  it('refuses clearly, signing nothing, when the latest block is 10 minutes old', async () => {
    const { desk, address } = await deskFor(2);
    await idleFor(stack, 600);
    const before = await balanceOf(stack, address);
    const quote = await desk.handlers['quote.get']({ handle: handles[2]!, selection: { kind: 'all' } });
    const error = await failure(
      desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
    );
    expect(error.code).toBe('clock_skew');
    expect(error.kind).toBe('refused');
    expect(error.message).toMatch(
      /^The chain's latest block is 10 min( \d+ s)? behind this computer's clock and the service's clock;.*its RPC node lags/,
    );
    expect(error.message).toMatch(/Nothing was signed/);
    expect((await desk.handlers['purchases.list']({})).purchases).toEqual([]);
    expect(await balanceOf(stack, address)).toBe(before);
  });
});
