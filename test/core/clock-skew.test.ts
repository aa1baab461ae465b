/**
 * Clocks that disagree: this computer's (the desk's injectable `now`) minutes ahead or behind, and the
 * chain's clock moved with anvil's own controls. What a payment window can absorb is bought and paid exactly
 * once on chain; what it cannot is refused before anything is signed, with a message that says which clock.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore, DeskCoreOptions } from '../../src/core';
import { balanceOf, deskWithWallet, failure, tempDir, buyAll } from './helpers';
import { shiftChainClock } from '../service/chain-time';

let stack: Stack;
let handles: string[];
const cleanups: (() => Promise<void> | void)[] = [];
const MINUTE = 60_000;

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 6, minReportsPerHandle: 3, maxReportsPerHandle: 3 } });
  const lister = await deskFor(0);
  handles = (await lister.desk.handlers['shelf.list']({})).entries.map((entry) => entry.username);
});
afterEach(async () => {
  await shiftChainClock(stack, 0);
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await stack?.stop();
});

async function deskFor(buyer: number, options: Partial<DeskCoreOptions> = {}) {
  const data = tempDir('desk-clock-skew-');
  const opened = await deskWithWallet(stack, data.dir, buyer, options);
  cleanups.push(() => opened.desk.close(), data.remove);
  return opened;
}

async function expectBought(desk: DeskCore, address: `0x${string}`, handle: string) {
  const before = await balanceOf(stack, address);
  const { quote, outcome } = await buyAll(desk, handle);
  expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
  expect(await balanceOf(stack, address)).toBe(before - BigInt(quote.amount));
}

async function expectSkewRefused(desk: DeskCore, address: `0x${string}`, handle: string, message: RegExp) {
  const before = await balanceOf(stack, address);
  const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
  const error = await failure(
    desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
  );
  expect(error.code).toBe('clock_skew');
  expect(error.kind).toBe('refused');
  expect(error.message).toMatch(message);
  expect(error.message).toMatch(/Nothing was signed/);
  expect((await desk.handlers['purchases.list']({})).purchases).toEqual([]);
  expect(await balanceOf(stack, address)).toBe(before);
}

describe("this computer's clock skewed", () => {
  it('buys with the clock 3 minutes ahead or 3 minutes behind, with or without a chain RPC', async () => {
    const ahead = await deskFor(0, { now: () => Date.now() + 3 * MINUTE });
    await expectBought(ahead.desk, ahead.address, handles[0]!);
    const behind = await deskFor(1, { now: () => Date.now() - 3 * MINUTE });
    await expectBought(behind.desk, behind.address, handles[1]!);
    // Without an RPC URL the service's Date header alone dates the payment.
    const serviceOnly = await deskFor(2, { now: () => Date.now() + 3 * MINUTE, rpcUrl: '' });
    await expectBought(serviceOnly.desk, serviceOnly.address, handles[2]!);
  });

  it('refuses clearly with the clock 6 minutes ahead or behind', async () => {
    const ahead = await deskFor(0, { now: () => Date.now() + 6 * MINUTE });
    await expectSkewRefused(
      ahead.desk,
      ahead.address,
      handles[3]!,
      /^This computer's clock is 6 min( \d+ s)? ahead of the service's clock and the chain's latest block;.*Set this computer's clock right/,
    );
    const behind = await deskFor(1, { now: () => Date.now() - 6 * MINUTE });
    await expectSkewRefused(
      behind.desk,
      behind.address,
      handles[3]!,
      /^This computer's clock is 6 min( \d+ s)? behind the service's clock and the chain's latest block;.*Set this computer's clock right/,
    );
  });
});

describe("the chain's clock moved", () => {
  it('buys when the chain runs 2 minutes behind the service', async () => {
    await shiftChainClock(stack, -120);
    const { desk, address } = await deskFor(0);
    await expectBought(desk, address, handles[4]!);
  });

  it('refuses clearly when the chain runs 6 minutes ahead of the service', async () => {
    await shiftChainClock(stack, 360);
    const { desk, address } = await deskFor(0);
    await expectSkewRefused(
      desk,
      address,
      handles[5]!,
      /^The chain's latest block is 6 min( \d+ s)? ahead of this computer's clock and the service's clock;.*runs ahead/,
    );
  });
});
