/**
 * Purchase requests in core (what request_purchase records and `intel-desk approve` pays): an approval is the
 * ordinary quote and purchase.start, refused past a cap or the session's limit without losing the request, and
 * a request pays once however many approvals race for it. Checked against the reference service and its chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { DeskCore } from '../../src/core';
import { startStack, type Stack } from '../../src/service/stack';
import {
  balanceOf,
  deskDbAtVersion,
  deskFor,
  deskWithWallet,
  failure,
  firstHandle,
  tempDir,
} from '../core/helpers';

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

    const { outcome, request } = await desk.handlers['purchaseRequest.approve']({ id, acceptOverCap: true });
    expect(outcome.status).toBe('completed');
    expect(request).toMatchObject({
      state: 'approved',
      purchaseId: outcome.status === 'completed' ? outcome.purchase.id : '',
    });
    expect(await balanceOf(stack, address)).toBe(before - 10_000n);
    await desk.handlers['settings.update']({ perPurchaseCapUnits: '10000000' });
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
