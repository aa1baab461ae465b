/**
 * An unused authorization is dead only once the chain says so: a block at or past validBefore shows it
 * unused. A desk whose clock runs ahead (by up to the window the skew check absorbs) must not call a payment
 * failed while the chain could still settle it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { balanceOf, deskFor, deskWithWallet, tempDir } from './helpers';
import { startFlakyProxy, type FlakyProxy } from './flaky-proxy';
import { anvilCall, latestBlockTime } from '../service/chain-time';

let stack: Stack;
let service: FlakyProxy;
const data = tempDir('desk-expiry-');

beforeAll(async () => {
  // Its own chain: the test moves that chain's time forward for good.
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
  });
  service = await startFlakyProxy(stack.baseUrl);
});
afterAll(async () => {
  await service?.close();
  await stack?.stop();
  data.remove();
});

it('stays in doubt while only the desk clock is past validBefore, and fails once the chain is', async () => {
  const options = { serviceUrl: service.url, timeoutMs: 1_000 };
  const { desk, address } = await deskWithWallet(stack, data.dir, 0, options);
  const handle = (await desk.handlers['shelf.list']({})).entries[0]!.username;
  const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
  const before = await balanceOf(stack, address);
  // The paid request never reaches the service: the purchase is in doubt and nothing settles.
  service.mode = 'stall';
  const outcome = await desk.handlers['purchase.start']({
    quoteId: quote.quoteId,
    confirmedAmount: quote.amount,
  });
  expect(outcome.status).toBe('in_doubt');
  await desk.close();
  service.mode = 'pass';

  // Four minutes later by the desk's clock: past validBefore (about 300 s after signing) by that clock, but
  // the chain, which decides, has not got there.
  const deskAhead = await deskFor(stack, data.dir, { ...options, now: () => Date.now() + 400_000 });
  const early = (await deskAhead.handlers['purchases.list']({})).purchases[0]!;
  await deskAhead.close();
  expect(early.state).toBe('in_doubt');
  expect(early.waitingFor?.kind).toBe('expiry');

  // The chain's own time passes validBefore.
  await anvilCall(stack, 'evm_increaseTime', [400]);
  await anvilCall(stack, 'evm_mine');
  expect((await latestBlockTime(stack)) * 1000).toBeGreaterThan(Date.parse(early.createdAt) + 300_000);
  const later = await deskFor(stack, data.dir, options);
  const closed = (await later.handlers['purchases.list']({})).purchases[0]!;
  await later.close();
  expect(closed).toMatchObject({ state: 'failed', waitingFor: null });
  expect(closed.error).toMatch(/expired unused/);
  expect(await balanceOf(stack, address)).toBe(before);
});
