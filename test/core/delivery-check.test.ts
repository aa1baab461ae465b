/**
 * What arrives must be what was bought. A hostile service (a real proxy on loopback in front of the reference
 * service) lets the real payment settle on the real chain and then answers with something else: another
 * handle's reports, ids that were not bought, fewer reports. Nothing of it may be stored, and the purchase is
 * held in doubt (money moved), across a restart too. A date range whose challenge counts other reports than
 * the menu is refused before signing. And the same report id from two services is two reports.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import type { PurchaseOutcome } from '../../src/shared/rpc';
import { balanceOf, deskFor, deskWithWallet, failure, PASSPHRASE, tempDir } from './helpers';
import { editChallenge, startHostileProxy, type HostileProxy, type PaidBody } from './hostile-proxy';

let stack: Stack;
let proxy: HostileProxy;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let payer: `0x${string}`;
let handle: string;
let other: string;
let ids: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 3, minReportsPerHandle: 6, maxReportsPerHandle: 6 },
    buyerCount: 1,
  });
  proxy = await startHostileProxy(stack.baseUrl);
  data = tempDir('desk-delivery-');
  ({ desk, address: payer } = await deskWithWallet(stack, data.dir, 0, { serviceUrl: proxy.url }));
  const shelf = await desk.handlers['shelf.list']({});
  handle = shelf.entries[0]!.username;
  other = shelf.entries[1]!.username;
  ids = (await desk.handlers['menu.get']({ handle })).reports.map((r) => r.id);
});
afterEach(() => {
  proxy.rewritePaid = null;
  proxy.mutate = null;
});
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await stack?.stop();
  data?.remove();
});

/** Another handle's real reports, read from the service with the library secret (no payment). */
async function reportsOf(username: string, count: number): Promise<PaidBody> {
  const menu = (await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${username}`)).json()) as {
    reports: { id: string }[];
  };
  const wanted = menu.reports.slice(0, count).map((r) => r.id);
  const answer = await fetch(
    `${stack.baseUrl}/api/intel/reports?username=${username}&select=range&ids=${wanted.join(',')}`,
    { headers: { Authorization: `Bearer ${stack.librarySecret}` } },
  );
  expect(answer.status).toBe(200);
  return (await answer.json()) as PaidBody;
}

async function buyIds(chosen: string[]): Promise<PurchaseOutcome> {
  const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: chosen } });
  return desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount });
}

const ownedIds = async () => (await desk.handlers['library.list']({})).items.map((item) => item.id);

/** A paid answer that is not what was bought: in doubt with the reason, money moved, nothing stored. */
async function expectHeld(outcome: PurchaseOutcome, reason: RegExp, spent: bigint, before: bigint) {
  expect(outcome.status).toBe('in_doubt');
  if (outcome.status !== 'in_doubt') return;
  expect(outcome.message).toMatch(reason);
  expect(outcome.message).toMatch(/Nothing was stored\. The purchase is held in doubt/);
  expect(outcome.purchase).toMatchObject({ state: 'in_doubt', reportIds: [] });
  expect(outcome.purchase.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  expect(outcome.purchase.waitingFor?.kind).toBe('redelivery');
  expect(await balanceOf(stack, payer)).toBe(before - spent);
  expect(await ownedIds()).toEqual([]);
  return outcome.purchase.id;
}

describe('a paid answer is checked against the purchase', () => {
  it("refuses another handle's reports, and keeps refusing them after a restart", async () => {
    const before = await balanceOf(stack, payer);
    proxy.rewritePaid = () => reportsOf(other, 1);
    const outcome = await buyIds([ids[0]!]);
    const id = await expectHeld(
      outcome,
      new RegExp(`answered with reports of @${other} instead of @${handle}\\.`),
      10_000n,
      before,
    );
    expect((await desk.handlers['menu.get']({ handle: other })).reports.some((r) => r.owned)).toBe(false);

    // The kept answer is looked at again on the next start: still refused, still in doubt, still nothing stored.
    await desk.close();
    desk = await deskFor(stack, data.dir, { serviceUrl: proxy.url });
    await desk.handlers['wallet.unlock']({ passphrase: PASSPHRASE });
    const row = (await desk.handlers['purchases.list']({})).purchases.find((p) => p.id === id);
    expect(row).toMatchObject({ state: 'in_doubt', reportIds: [] });
    expect(row?.error).toMatch(new RegExp(`reports of @${other} instead of @${handle}`));
    expect(await ownedIds()).toEqual([]);
  });

  it('refuses an answer with a report that was not bought', async () => {
    const before = await balanceOf(stack, payer);
    const extra = await reportsOf(handle, 6);
    proxy.rewritePaid = async (body) => ({
      ...body,
      reportCount: body.reportCount + 1,
      reports: [...body.reports, extra.reports.find((r) => r.id === ids[5])!],
    });
    const outcome = await buyIds([ids[1]!]);
    await expectHeld(
      outcome,
      new RegExp(`answered with report ${ids[5]}, which was not bought`),
      10_000n,
      before,
    );
  });

  it('refuses an answer with fewer reports than were paid for', async () => {
    const before = await balanceOf(stack, payer);
    proxy.rewritePaid = async (body) => ({ ...body, reportCount: 1, reports: body.reports.slice(0, 1) });
    const outcome = await buyIds([ids[2]!, ids[3]!]);
    await expectHeld(
      outcome,
      /answered with 1 of the 2 reports paid for \(missing rpt_\w+\)/,
      20_000n,
      before,
    );
  });

  it('refuses a date range whose challenge counts other reports than the menu, before signing', async () => {
    const menu = await desk.handlers['menu.get']({ handle });
    const from = menu.reports[1]!.createdAt;
    const purchases = (await desk.handlers['purchases.list']({})).purchases.length;
    proxy.mutate = editChallenge({ amount: '30000' }, { reportCount: 3 });
    const refusal = await failure(
      desk.handlers['quote.get']({ handle, selection: { kind: 'dates', from }, includeOwned: true }),
    );
    expect(refusal.code).toBe('report_count_mismatch');
    expect(refusal.message).toBe(
      'The service would charge for 3 reports, but the menu lists 2 in this date range; refresh the menu and choose again. Nothing was signed.',
    );
    expect((await desk.handlers['purchases.list']({})).purchases).toHaveLength(purchases);
  });
});

describe('the library is keyed by service and report id', () => {
  it('keeps the same report id bought from two services as two reports', async () => {
    const id = ids[4]!;
    proxy.rewritePaid = async (body) => ({
      ...body,
      reports: body.reports.map((r) => ({ ...r, model: 'model-of-the-second-service' })),
    });
    const viaProxy = await buyIds([id]);
    expect(viaProxy.status).toBe('completed');
    proxy.rewritePaid = null;

    await desk.handlers['settings.update']({ serviceUrl: stack.baseUrl });
    const menu = await desk.handlers['menu.get']({ handle });
    expect(menu.reports.find((r) => r.id === id)?.owned).toBe(false);
    const direct = await buyIds([id]);
    expect(direct.status).toBe('completed');

    const items = (await desk.handlers['library.list']({})).items.filter((item) => item.id === id);
    expect(items.map((item) => item.serviceUrl).sort()).toEqual([proxy.url, stack.baseUrl].sort());
    const fromProxy = await desk.handlers['report.get']({ id, serviceUrl: proxy.url });
    const fromOrigin = await desk.handlers['report.get']({ id, serviceUrl: stack.baseUrl });
    expect(fromProxy.snapshot.model).toBe('model-of-the-second-service');
    expect(fromOrigin.snapshot.model).not.toBe('model-of-the-second-service');
    // Without a service, the one now selected is read.
    expect((await desk.handlers['report.get']({ id })).serviceUrl).toBe(stack.baseUrl);
    await desk.handlers['settings.update']({ serviceUrl: proxy.url });
  });
});
