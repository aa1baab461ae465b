/**
 * Offline and flaky network (issue 6), against the reference service and anvil behind proxies that stall,
 * reset, drop or refuse connections: browsing falls back to the last-known copies marked stale with the
 * reason, a purchase is refused before anything is signed, and an in-doubt purchase that cannot reach the
 * chain stays in doubt, says what it waits for, and is settled on a later refresh or start.
 */
import { readableDate } from '../../src/shared/analytics-shape';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore, PurchaseStep } from '../../src/core';
import type { DeskCoreOptions } from '../../src/core/desk/context';
import { DeskError } from '../../src/core/base/errors';
import { balanceOf, deskFor, deskWithWallet, ledgerRows, onPurchaseSteps, tempDir } from './helpers';
import { startFlakyProxy, type FlakyProxy } from './flaky-proxy';

let stack: Stack;
let service: FlakyProxy;
let chain: FlakyProxy;
let handle: string;
let ids: string[];
const steps: PurchaseStep[] = [];
const dirs: ReturnType<typeof tempDir>[] = [];
const desks: DeskCore[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 8, maxReportsPerHandle: 8 },
    buyerCount: 1,
  });
  service = await startFlakyProxy(stack.baseUrl);
  chain = await startFlakyProxy(stack.rpcUrl);
});
afterEach(async () => {
  await Promise.all(desks.splice(0).map((desk) => desk.close()));
  for (const proxy of [service, chain]) {
    proxy.mode = 'pass';
    await proxy.up().catch(() => undefined);
  }
});
afterAll(async () => {
  await Promise.all([service?.close(), chain?.close()]);
  await stack?.stop();
  for (const dir of dirs) dir.remove();
});

const options = (extra: Partial<DeskCoreOptions> = {}): Partial<DeskCoreOptions> => ({
  serviceUrl: service.url,
  rpcUrl: chain.url,
  timeoutMs: 1_000,
  chainTimeoutMs: 1_000,
  onEvent: onPurchaseSteps((_id, step) => steps.push(step)),
  ...extra,
});

async function walletDesk(extra: Partial<DeskCoreOptions> = {}, dir = tempDir('desk-offline-')) {
  dirs.push(dir);
  const { desk, address } = await deskWithWallet(stack, dir.dir, 0, options(extra));
  desks.push(desk);
  // Browsed once while live, so there is a last-known shelf to fall back to.
  handle = (await desk.handlers['shelf.list']({})).entries[0]!.username;
  ids ??= (await desk.handlers['menu.get']({ handle })).reports.map((r) => r.id);
  return { desk, address, dir };
}

async function refusal(action: Promise<unknown>): Promise<DeskError> {
  try {
    await action;
  } catch (error) {
    expect(error).toBeInstanceOf(DeskError);
    return error as DeskError;
  }
  throw new Error('expected a refusal');
}

describe('browsing with the service unreachable', () => {
  it('shows the last-known shelf and menu, marked stale with the reason, for every kind of failure', async () => {
    const { desk } = await walletDesk();
    const live = await desk.handlers['shelf.list']({});
    const liveMenu = await desk.handlers['menu.get']({ handle });
    expect([live.stale, liveMenu.stale]).toEqual([false, false]);

    const failures: [() => void, RegExp][] = [
      [() => (service.mode = 'stall'), /did not answer within 1 s/],
      [() => (service.mode = 'reset'), /connection to the service .* (failed|broke)/],
      [() => (service.mode = 'drop'), /connection to the service .* (failed|broke)/],
      [() => service.down(), /Cannot reach the service/],
    ];
    for (const [fail, reason] of failures) {
      fail();
      const shelf = await desk.handlers['shelf.list']({});
      expect(shelf).toMatchObject({ stale: true, fetchedAt: live.fetchedAt, entries: live.entries });
      expect(shelf.staleReason).toMatch(reason);
      const menu = await desk.handlers['menu.get']({ handle });
      expect(menu).toMatchObject({ stale: true, reportCount: liveMenu.reportCount });
      expect(menu.staleReason).toMatch(reason);
      expect((await desk.handlers['app.info']({})).online).toBe(false);
      service.mode = 'pass';
      await service.up().catch(() => undefined);
    }
    expect((await desk.handlers['shelf.list']({})).stale).toBe(false);
    expect((await desk.handlers['app.info']({})).online).toBe(true);
  });
});

describe('buying with the service unreachable', () => {
  it('refuses before signing when the service is down: no signature, no ledger row, no money', async () => {
    const { desk, address } = await walletDesk();
    const quote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(0, 1) },
    });
    const before = { steps: steps.length, balance: await balanceOf(stack, address) };
    service.down();
    const error = await refusal(
      desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
    );
    expect(error).toMatchObject({ code: 'service_unreachable', kind: 'network' });
    expect(error.message).toMatch(/Nothing was signed or sent/);
    expect(steps.slice(before.steps)).toEqual([]);
    expect((await desk.handlers['purchases.list']({})).purchases).toEqual([]);
    await service.up();
    expect(await balanceOf(stack, address)).toBe(before.balance);
  });

  it('re-prices a fresh quote once the service has failed since, and buys when it is back', async () => {
    const { desk } = await walletDesk();
    const quote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(1, 2) },
    });
    service.mode = 'reset';
    expect((await desk.handlers['shelf.list']({})).stale).toBe(true);
    const before = steps.length;
    const error = await refusal(
      desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
    );
    expect(error.code).toBe('service_unreachable');
    expect(steps.length).toBe(before);
    expect((await desk.handlers['purchases.list']({})).purchases).toEqual([]);
    service.mode = 'pass';
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(outcome.status).toBe('completed');
  });

  it('fails (not in doubt) a signed payment whose request could not leave the computer', async () => {
    const account = privateKeyToAccount(stack.buyerKeys[0]!);
    const { desk } = await walletDesk();
    await desk.handlers['wallet.useExternal']({ address: account.address });
    const quote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(2, 3) },
    });
    const started = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    if (started.status !== 'needs_signature') throw new Error('expected a signature request');
    const { typedData } = started.request;
    const signature = await account.signTypedData({
      ...typedData,
      domain: { ...typedData.domain, verifyingContract: typedData.domain.verifyingContract as `0x${string}` },
    });
    service.down();
    // A failed free call discards any kept-alive connection, so the payment needs a new one.
    expect((await desk.handlers['shelf.list']({})).stale).toBe(true);
    const before = await balanceOf(stack, account.address);
    const outcome = await desk.handlers['purchase.submitSignature']({
      purchaseId: started.request.purchaseId,
      signature,
    });
    expect(outcome).toMatchObject({ status: 'failed', code: 'service_unreachable' });
    if (outcome.status !== 'failed') return;
    expect(outcome.message).toMatch(/never left this computer; no money moved/);
    expect(outcome.purchase).toMatchObject({ state: 'failed', waitingFor: null });
    expect(await balanceOf(stack, account.address)).toBe(before);
  });
});

describe('in-doubt purchases while the chain is unreachable', () => {
  it('stay in doubt, say what they wait for, and settle on a later refresh', async () => {
    // The desk's clock, injected: every time below is read from it, none from the wall clock.
    const clock = { now: Date.now() };
    const { desk, address, dir } = await walletDesk({ now: () => clock.now });
    const quote = await desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(3, 4) },
    });
    const before = await balanceOf(stack, address);
    service.mode = 'stall';
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(outcome.status).toBe('in_doubt');
    if (outcome.status !== 'in_doubt') return;
    expect(outcome.purchase.waitingFor?.kind).toBe('expiry');

    const waitingOf = async (target: DeskCore) => {
      const { purchases } = await target.handlers['purchases.reconcile']({});
      expect(purchases).toHaveLength(1);
      return purchases[0]!;
    };
    chain.mode = 'stall';
    const stalled = await waitingOf(desk);
    expect(stalled.state).toBe('in_doubt');
    expect(stalled.waitingFor).toEqual({
      kind: 'chain',
      rpcUrl: chain.url,
      summary: `Waiting for the chain at ${chain.url}.`,
    });
    expect(stalled.checkedAt).toBeTruthy();
    chain.down();
    expect((await waitingOf(desk)).waitingFor?.kind).toBe('chain');

    await chain.up();
    chain.mode = 'pass';
    const unsettled = await waitingOf(desk);
    expect(unsettled.state).toBe('in_doubt');
    expect(unsettled.waitingFor).toMatchObject({
      kind: 'expiry',
      summary: expect.stringMatching(/^Waiting until /),
    });
    const until = unsettled.waitingFor?.kind === 'expiry' ? unsettled.waitingFor.until : '';
    // validBefore: 300 s after the earliest clock, the desk's own unless the service's Date header (whole
    // seconds) read a little earlier.
    const deskSeconds = Math.floor(clock.now / 1000);
    expect(Date.parse(until) / 1000).toBeLessThanOrEqual(deskSeconds + 300);
    expect(Date.parse(until) / 1000).toBeGreaterThanOrEqual(deskSeconds + 300 - 2);
    await desk.close();
    desks.splice(desks.indexOf(desk), 1);

    // Without any chain access: before validBefore it waits for the time; after it, for chain access.
    const noChain = await deskFor(stack, dir.dir, options({ rpcUrl: undefined, now: () => clock.now }));
    desks.push(noChain);
    expect((await waitingOf(noChain)).waitingFor).toEqual({
      kind: 'expiry',
      until,
      summary: `Waiting until ${readableDate(until)}.`,
    });
    await noChain.close();
    desks.pop();
    const laterNoChain = await deskFor(
      stack,
      dir.dir,
      options({ rpcUrl: undefined, now: () => clock.now + 700_000 }),
    );
    desks.push(laterNoChain);
    const closed = (await laterNoChain.handlers['purchases.list']({})).purchases[0]!;
    expect(closed).toMatchObject({ state: 'in_doubt', waitingFor: { kind: 'chain_access' } });
    await laterNoChain.close();
    desks.pop();

    // With the chain back, a start inside the window still waits; the refresh after it closed settles it:
    // the stalled request never reached the service.
    const later = await deskFor(stack, dir.dir, options({ now: () => clock.now }));
    desks.push(later);
    const waiting = (await later.handlers['purchases.list']({})).purchases[0]!;
    expect(waiting).toMatchObject({ state: 'in_doubt', waitingFor: { kind: 'expiry', until } });
    clock.now += 700_000;
    const settled = await waitingOf(later);
    expect(settled).toMatchObject({ state: 'failed', waitingFor: null });
    expect(settled.error).toMatch(/expired unused/);
    expect(await balanceOf(stack, address)).toBe(before);
    expect(ledgerRows(dir.dir)).toMatchObject([{ state: 'failed', amount: quote.amount, payer: address }]);
  });

  it('asks a dead chain once per check, however many purchases wait on it', async () => {
    const { desk } = await walletDesk();
    for (const id of ids.slice(4, 6)) {
      const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [id] } });
      service.mode = 'stall';
      const outcome = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      expect(outcome.status).toBe('in_doubt');
      service.mode = 'pass';
    }
    chain.mode = 'stall';
    // The service is gone too, so the kept payments cannot be sent again (payment-identifier): only the chain
    // can tell, and it is asked once.
    service.mode = 'reset';
    const before = chain.requests;
    const { purchases } = await desk.handlers['purchases.reconcile']({});
    service.mode = 'pass';
    expect(purchases.map((p) => p.waitingFor?.kind)).toEqual(['chain', 'chain']);
    expect(chain.requests - before).toBe(1);
  });
});
