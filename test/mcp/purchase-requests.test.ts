/**
 * Purchase requests in core (what request_purchase records and `intel-desk approve` pays): an approval is the
 * ordinary quote and purchase.start, refused past a cap or the session's limit without losing the request, and
 * a request pays once however many approvals race for it. Checked against the reference service and its chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { DeskCore } from '../../src/core';
import { BASE_SEPOLIA_USDC } from '../../src/core/payments/allowlist';
import { startStack, type Stack } from '../../src/service/stack';
import {
  balanceOf,
  deskDbAtVersion,
  deskFor,
  deskWithWallet,
  failure,
  firstHandle,
  ledgerRows,
  PASSPHRASE,
  tempDir,
} from '../core/helpers';
import { editChallenge, startHostileProxy } from '../core/hostile-proxy';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let address: `0x${string}`;
let handle: string;
let ids: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    buyerCount: 1,
    unitPriceUsd: 0.01,
  });
  data = tempDir('desk-requests-');
  ({ desk, address } = await deskWithWallet(stack, data.dir));
  ({ handle, ids } = await firstHandle(stack));
});
afterAll(async () => {
  await desk?.close();
  await stack?.stop();
  data?.remove();
});

describe('purchase requests', () => {
  it('opens a library of the version before them with none waiting', async () => {
    const old = tempDir('desk-requests-v12-');
    try {
      deskDbAtVersion(path.join(old.dir, 'desk.db'), 12).close();
      const upgraded = await deskFor(stack, old.dir);
      expect(await upgraded.handlers['purchaseRequests.list']({})).toEqual({ requests: [] });
      await upgraded.close();
    } finally {
      old.remove();
    }
  });

  it('records a request at the live price and signs nothing', async () => {
    const before = await balanceOf(stack, address);
    const request = await desk.handlers['purchaseRequest.create']({
      handle,
      selection: { kind: 'ids', ids: [ids[0]!] },
      reason: 'the newest',
    });
    expect(request).toMatchObject({
      state: 'pending',
      reportCount: 1,
      amount: '10000',
      reason: 'the newest',
    });
    expect((await desk.handlers['purchases.list']({})).purchases).toEqual([]);
    expect(await balanceOf(stack, address)).toBe(before);
  });

  it('is refused past the session limit or a cap and stays pending; approved over the cap it pays', async () => {
    const before = await balanceOf(stack, address);
    const { id } = await desk.handlers['purchaseRequest.create']({
      handle,
      selection: { kind: 'ids', ids: [ids[1]!] },
    });
    const limited = await failure(desk.handlers['purchaseRequest.approve']({ id, limitUnits: '5000' }));
    expect(limited.code).toBe('over_session_limit');
    await desk.handlers['settings.update']({ perPurchaseCapUnits: '1000' });
    const capped = await failure(desk.handlers['purchaseRequest.approve']({ id }));
    expect(capped.code).toBe('over_purchase_cap');
    expect(await desk.handlers['purchaseRequest.get']({ id })).toMatchObject({
      state: 'pending',
      error: capped.message,
    });
    expect(await balanceOf(stack, address)).toBe(before);

    const { outcome, request } = await desk.handlers['purchaseRequest.approve']({
      id,
      acceptOverCap: true,
      passphrase: PASSPHRASE,
    });
    expect(outcome.status).toBe('completed');
    expect(request).toMatchObject({
      state: 'approved',
      purchaseId: outcome.status === 'completed' ? outcome.purchase.id : '',
    });
    expect(await balanceOf(stack, address)).toBe(before - 10_000n);
    await desk.handlers['settings.update']({ perPurchaseCapUnits: '10000000', passphrase: PASSPHRASE });
  });

  it('pays once when two approvals race for the same request', async () => {
    const before = await balanceOf(stack, address);
    const { id } = await desk.handlers['purchaseRequest.create']({
      handle,
      selection: { kind: 'ids', ids: [ids[2]!] },
    });
    const results = await Promise.allSettled([
      desk.handlers['purchaseRequest.approve']({ id }),
      desk.handlers['purchaseRequest.approve']({ id }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 'request_not_pending' });
    expect(await balanceOf(stack, address)).toBe(before - 10_000n);
  });

  it('declines a pending request, and nothing pays it afterwards', async () => {
    const { id } = await desk.handlers['purchaseRequest.create']({
      handle,
      selection: { kind: 'ids', ids: [ids[3]!] },
    });
    expect((await desk.handlers['purchaseRequest.decline']({ id })).state).toBe('declined');
    expect((await failure(desk.handlers['purchaseRequest.approve']({ id }))).code).toBe(
      'request_not_pending',
    );
    expect((await failure(desk.handlers['purchaseRequest.get']({ id: 'req_000000000000' }))).code).toBe(
      'request_not_found',
    );
  });
});

/**
 * An approval pays the terms the person was shown or nothing (decision 0039): each desk here is new, so no
 * payee is pinned yet and the pin cannot be what stops a changed payee. The request is made while a proxy
 * shows other terms; the approval meets the service's own, which would pay on chain if let through.
 */
describe('an approval pays the terms the request showed', () => {
  const OTHER_PAYEE = '0x2222222222222222222222222222222222222222';

  async function requestShownAs(mutation: Parameters<typeof editChallenge>, index: number) {
    const proxy = await startHostileProxy(stack.baseUrl);
    const dir = tempDir('desk-request-terms-');
    const { desk: fresh, address: payer } = await deskWithWallet(stack, dir.dir, 0, {
      serviceUrl: proxy.url,
    });
    proxy.mutate = editChallenge(...mutation);
    const request = await fresh.handlers['purchaseRequest.create']({
      handle,
      selection: { kind: 'ids', ids: [ids[index]!] },
    });
    proxy.mutate = null;
    return {
      fresh,
      payer,
      request,
      dir: dir.dir,
      close: async () => {
        await fresh.close();
        await proxy.close();
        dir.remove();
      },
    };
  }

  it('refuses a request shown for another payee, with no payee pinned yet, and pays nothing', async () => {
    const t = await requestShownAs([{ payTo: OTHER_PAYEE }], 0);
    try {
      expect(t.request).toMatchObject({ payTo: OTHER_PAYEE, network: stack.network });
      const before = await balanceOf(stack, t.payer);
      const refusal = await failure(t.fresh.handlers['purchaseRequest.approve']({ id: t.request.id }));
      expect(refusal.code).toBe('request_terms_changed');
      expect(refusal.message).toContain(`the payee changed from ${OTHER_PAYEE} to ${stack.payTo}`);
      expect(refusal.message).toContain('nothing was paid');
      expect(await balanceOf(stack, t.payer)).toBe(before);
      expect(ledgerRows(t.dir)).toEqual([]);
      expect(await t.fresh.handlers['purchaseRequest.get']({ id: t.request.id })).toMatchObject({
        state: 'pending',
        error: refusal.message,
      });
    } finally {
      await t.close();
    }
  });

  it('refuses a request shown on Base Sepolia when the service now asks for another network', async () => {
    const t = await requestShownAs(
      [
        {
          network: BASE_SEPOLIA_USDC.network,
          asset: BASE_SEPOLIA_USDC.asset,
          extra: { name: 'USDC', version: '2' },
        },
        { chainId: 84532 },
      ],
      1,
    );
    try {
      expect(t.request).toMatchObject({ network: 'eip155:84532', asset: BASE_SEPOLIA_USDC.asset });
      const before = await balanceOf(stack, t.payer);
      const refusal = await failure(t.fresh.handlers['purchaseRequest.approve']({ id: t.request.id }));
      expect(refusal.code).toBe('request_terms_changed');
      expect(refusal.message).toContain(`the network changed from eip155:84532 to ${stack.network}`);
      expect(refusal.message).toContain(
        `the token changed from ${BASE_SEPOLIA_USDC.asset} to ${stack.asset}`,
      );
      expect(await balanceOf(stack, t.payer)).toBe(before);
      expect(ledgerRows(t.dir)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('refuses other reports at the same count and price: a date range whose reports moved', async () => {
    const t = await requestShownAs([{}], 0);
    const service = new Database(path.join(stack.dataDir, 'service.db'));
    const dates = () =>
      service
        .prepare<[string], { id: string; created_at: string }>(
          'SELECT id, created_at FROM reports WHERE handle_key = ? ORDER BY created_at',
        )
        .all(handle.toLowerCase());
    const [first, second] = dates() as [
      { id: string; created_at: string },
      { id: string; created_at: string },
    ];
    try {
      const range = await t.fresh.handlers['purchaseRequest.create']({
        handle,
        selection: { kind: 'dates', from: first.created_at, to: first.created_at },
      });
      expect(range).toMatchObject({ reportCount: 1, reportIds: [first.id] });
      // The service now dates the second report where the first was, and the first a year earlier.
      const earlier = new Date(Date.parse(first.created_at) - 365 * 86_400_000).toISOString();
      service.prepare('UPDATE reports SET created_at = ? WHERE id = ?').run(earlier, first.id);
      service.prepare('UPDATE reports SET created_at = ? WHERE id = ?').run(first.created_at, second.id);
      // Served again: the service keeps each menu it encoded until a write of its own.
      await stack.stopService();
      await stack.restartService();
      const before = await balanceOf(stack, t.payer);
      const refusal = await failure(t.fresh.handlers['purchaseRequest.approve']({ id: range.id }));
      expect(refusal.code).toBe('request_terms_changed');
      expect(refusal.message).toContain(`the reports changed (without ${first.id}, with ${second.id})`);
      expect(await balanceOf(stack, t.payer)).toBe(before);
    } finally {
      service.prepare('UPDATE reports SET created_at = ? WHERE id = ?').run(first.created_at, first.id);
      service.prepare('UPDATE reports SET created_at = ? WHERE id = ?').run(second.created_at, second.id);
      service.close();
      await stack.stopService();
      await stack.restartService();
      await t.close();
    }
  });

  it('pays a request whose terms are unchanged, the payee it showed included', async () => {
    const t = await requestShownAs([{}], 2);
    try {
      expect(t.request).toMatchObject({
        payTo: stack.payTo,
        asset: stack.asset,
        unitPriceUnits: '10000',
        reportIds: [ids[2]],
      });
      const before = await balanceOf(stack, t.payer);
      const { outcome } = await t.fresh.handlers['purchaseRequest.approve']({ id: t.request.id });
      expect(outcome.status).toBe('completed');
      expect(await balanceOf(stack, t.payer)).toBe(before - 10_000n);
    } finally {
      await t.close();
    }
  });
});
