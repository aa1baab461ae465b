/**
 * Restore purchases (sign-in-with-x) in core, against the reference service and chain: a paid answer a gateway
 * lost, held in doubt, is completed by the restore (one ledger row, one payment on chain); a wallet in the window
 * signs step by step; many purchases come back page by page, and a proof that expires between pages (the
 * clock moves on) is answered with a new signature, not a failure.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { PurchaseRestore, restoreWithKey } from '../../src/core/restore/restore-purchases';
import { ServiceClient } from '../../src/core/client/service-client';
import { DeskContext } from '../../src/core/desk/context';
import {
  balanceOf,
  buyAll,
  deskFor,
  deskOptions,
  deskWithWallet,
  ledgerRows,
  storedSnapshots,
  tempDir,
} from './helpers';
import { startHostileProxy, withoutPaymentIdentifier, type HostileProxy } from './hostile-proxy';

let stack: Stack;
let handles: string[];
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 3, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 3,
    restorePageLimit: 1,
  });
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handles = shelf.entries.map((entry) => entry.username);
});
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await stack?.stop();
});

function folder(): string {
  const made = tempDir('desk-restore-');
  cleanups.push(() => made.remove());
  return made.dir;
}

async function opened(desk: Promise<{ desk: DeskCore; address: `0x${string}` }>) {
  const made = await desk;
  cleanups.push(() => made.desk.close());
  return made;
}

describe('restore purchases', () => {
  it('completes a purchase whose paid answer a gateway lost, without a second payment', async () => {
    const proxy: HostileProxy = await startHostileProxy(stack.baseUrl);
    cleanups.push(() => proxy.close());
    proxy.mutate = withoutPaymentIdentifier;
    const dir = folder();
    const { desk, address } = await deskWithWallet({ ...stack, baseUrl: proxy.url }, dir, 0);
    proxy.paidAnswer = { status: 502, body: '<h1>502 Bad Gateway</h1>' };
    const { outcome } = await buyAll(desk, handles[0]!);
    proxy.paidAnswer = null;
    expect(outcome.status).toBe('in_doubt');
    await desk.close();
    const spent = await balanceOf(stack, address);

    // The same library, now reaching the service at its own origin, which its sign-in challenge names.
    const direct = await opened(deskWithWallet(stack, dir, 0));
    const step = await direct.desk.handlers['library.restorePurchases']({});
    expect(step).toMatchObject({
      status: 'done',
      summary: { purchases: 1, restoredPurchases: 1, reports: 3 },
    });
    const rows = ledgerRows(dir);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'completed', waiting_json: null });
    expect(storedSnapshots(dir).every((s) => s.purchase_id === rows[0]!.id)).toBe(true);
    expect(storedSnapshots(dir)).toHaveLength(3);
    expect(await balanceOf(stack, address)).toBe(spent);
  });

  it('asks a wallet in the window to sign, then restores with its signature', async () => {
    const account = privateKeyToAccount(stack.buyerKeys[1]!);
    const buyerDir = folder();
    const { desk } = await opened(deskWithWallet(stack, buyerDir, 1));
    await buyAll(desk, handles[1]!);

    const desk2 = await deskFor(stack, folder());
    cleanups.push(() => desk2.close());
    await desk2.handlers['wallet.useExternal']({ address: account.address });
    const step = await desk2.handlers['library.restorePurchases']({});
    if (step.status !== 'sign') throw new Error(`expected a sign step, got ${step.status}`);
    expect(step.message).toMatch(/wants you to sign in with your Ethereum account:\n0x/);
    expect(step.message).toContain(account.address);
    // A second window starts its own restore before the first one's wallet answers: each goes on with its own.
    const second = await desk2.handlers['library.restorePurchases']({});
    if (second.status !== 'sign') throw new Error('expected a sign step');
    expect(second.message).not.toBe(step.message);
    const signIn = async (message: string) =>
      desk2.handlers['library.restorePurchases']({
        signed: { message, signature: await account.signMessage({ message }) },
      });
    const done = await signIn(step.message);
    expect(done).toMatchObject({ status: 'done', summary: { restoredPurchases: 1, reports: 3 } });
    expect(await signIn(second.message)).toMatchObject({
      status: 'done',
      summary: { restoredPurchases: 0, alreadyHeld: 1 },
    });

    // A signature nobody asked for is refused, and a wrong one is the service's refusal with its reason.
    await expect(
      desk2.handlers['library.restorePurchases']({ signed: { message: step.message, signature: '0x1234' } }),
    ).rejects.toMatchObject({ code: 'restore_not_started' });
    const again = await desk2.handlers['library.restorePurchases']({});
    if (again.status !== 'sign') throw new Error('expected a sign step');
    const stranger = privateKeyToAccount(stack.buyerKeys[2]!);
    await expect(
      desk2.handlers['library.restorePurchases']({
        signed: { message: again.message, signature: await stranger.signMessage({ message: again.message }) },
      }),
    ).rejects.toMatchObject({ code: 'sign_in_refused', message: /invalid_siwx_signature/ });
  });

  it('pages through many purchases and signs again when the proof expires between pages', async () => {
    const buyerDir = folder();
    const { desk, address } = await opened(deskWithWallet(stack, buyerDir, 2));
    for (const handle of handles) await buyAll(desk, handle);

    const dir = folder();
    const context = new DeskContext(deskOptions(stack, dir));
    cleanups.push(() => context.close());
    const account = privateKeyToAccount(stack.buyerKeys[2]!);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const pages: number[] = [];
    const signed: string[] = [];
    const restore = new PurchaseRestore(
      new ServiceClient(stack.baseUrl),
      {
        db: context.db,
        ledger: context.payments.ledger,
        snapshots: context.library.snapshots,
        deliver: (id, body, text) => context.payments.settlement.deliver(id, body, text),
        now: () => Date.now(),
        chain: (network) => context.chains.chain(network),
      },
      address,
      (summary) => {
        pages.push(summary.purchases);
        // Six minutes pass after the first page: the proof is stale for the second.
        if (pages.length === 1) vi.setSystemTime(Date.now() + 6 * 60_000);
      },
    );
    const summary = await restoreWithKey(restore, (message) => {
      signed.push(message);
      return account.signMessage({ message });
    });
    expect(pages).toEqual([1, 2, 3]);
    expect(signed).toHaveLength(2);
    expect(summary).toMatchObject({ purchases: 3, restoredPurchases: 3, reports: 9 });
    expect(storedSnapshots(dir)).toHaveLength(9);
  });
});
