/**
 * Restore records what the chain confirms, not what the service says (issue 41, finding 4), on the reference
 * service and chain behind `front`, its public URL, which rewrites the list of purchases as a hostile service
 * would. An amount over the largest cap, a date after now, or a purchase the chain contradicts (another wallet's,
 * an authorization never used, another amount) is refused; one the chain cannot be asked about is kept as
 * restored, outside the caps and the spend totals, so it cannot fill today's cap; one the chain confirms (at
 * once, or on a later restore once the desk has a chain RPC) counts as any purchase. Sums of amounts no longer
 * overflow SQLite's integers.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore, DeskCoreOptions } from '../../src/core';
import type { RestoreSummary } from '../../src/shared/rpc';
import { buyAll, deskWithWallet, ledgerRows, storedSnapshots, tempDir } from './helpers';
import { startHostileProxy, type HostileProxy } from './hostile-proxy';

let stack: Stack;
let front: HostileProxy;
let handles: string[];
let bought: { amount: string; reports: number };
const cleanups: (() => Promise<void> | void)[] = [];

type Listed = Record<string, unknown>;

beforeAll(async () => {
  front = await startHostileProxy('');
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 2, maxReportsPerHandle: 2 },
    publicUrl: front.url,
  });
  front.target = stack.baseUrl;
  const made = tempDir('desk-restore-bounds-buyer-');
  const { desk } = await deskWithWallet({ ...stack, baseUrl: front.url }, made.dir, 0);
  handles = (await desk.handlers['shelf.list']({})).entries.map((entry) => entry.username);
  const { quote, outcome } = await buyAll(desk, handles[0]!);
  expect(outcome.status).toBe('completed');
  bought = { amount: quote.amount, reports: quote.reportCount };
  await desk.close();
  made.remove();
});
afterEach(async () => {
  front.rewriteFree = null;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await front?.close();
  await stack?.stop();
});

async function desk(
  options: Partial<DeskCoreOptions> = {},
  buyer = 0,
): Promise<{ desk: DeskCore; dir: string }> {
  const made = tempDir('desk-restore-bounds-');
  const { desk } = await deskWithWallet({ ...stack, baseUrl: front.url }, made.dir, buyer, options);
  cleanups.push(() => made.remove());
  cleanups.push(() => desk.close());
  return { desk, dir: made.dir };
}

async function restore(restoring: DeskCore): Promise<RestoreSummary> {
  const step = await restoring.handlers['library.restorePurchases']({});
  if (step.status !== 'done') throw new Error(`expected the restore to finish, got ${step.status}`);
  return step.summary;
}

/** The service lists, instead of the wallet's one purchase, these edits of it. */
function listInstead(...edits: Listed[]): void {
  front.rewriteFree = (body) => {
    const purchases = body['purchases'];
    if (!Array.isArray(purchases) || purchases.length === 0) return body;
    const real = purchases[0] as Listed;
    return { ...body, purchases: edits.map((edit) => ({ ...real, ...edit })) };
  };
}

const otherNonce = () => `0x${randomBytes(32).toString('hex')}`;
/** The largest cap settings accept: 1,000,000 USD. */
const LARGEST_CAP = '1000000000000';

describe('restore records what the chain confirms', () => {
  it('refuses an amount over the largest cap and a date after now, storing neither', async () => {
    listInstead(
      { amount: '9'.repeat(78) },
      { amount: '1000000000001', nonce: otherNonce() },
      { settledAt: '2999-01-01T00:00:00.000Z', nonce: otherNonce() },
      { settledAt: new Date(Date.now() + 3_600_000).toISOString(), nonce: otherNonce() },
    );
    const { desk: restoring, dir } = await desk();
    const summary = await restore(restoring);
    expect(summary).toMatchObject({ purchases: 4, refused: 4, restoredPurchases: 0, reports: 0 });
    expect(summary.problems.map((p) => p.reason)).toEqual([
      `its amount (${'9'.repeat(78)} base units) is over the largest cap the desk accepts (1,000,000 USD)`,
      'its amount (1000000000001 base units) is over the largest cap the desk accepts (1,000,000 USD)',
      'it is dated 2999-01-01T00:00:00.000Z, after now: a purchase cannot have settled in the future',
      expect.stringMatching(/after now: a purchase cannot have settled in the future$/),
    ]);
    expect(ledgerRows(dir)).toEqual([]);
    expect(storedSnapshots(dir)).toEqual([]);
  });

  it('refuses what the chain contradicts: a purchase of another wallet, an unused authorization, another amount', async () => {
    // The purchase another wallet made here, as the service lists it to that wallet.
    const { desk: other } = await desk({}, 1);
    expect((await buyAll(other, handles[1]!)).outcome.status).toBe('completed');
    let theirs: Listed[] = [];
    front.rewriteFree = (body) => {
      if (Array.isArray(body['purchases'])) theirs = body['purchases'] as Listed[];
      return body;
    };
    expect(await restore((await desk({}, 1)).desk)).toMatchObject({ restoredPurchases: 1 });
    expect(theirs).toHaveLength(1);

    front.rewriteFree = (body) => {
      const purchases = body['purchases'];
      if (!Array.isArray(purchases) || purchases.length === 0) return body;
      const real = purchases[0] as Listed;
      const amount = (BigInt(real['amount'] as string) + 1n).toString();
      return {
        ...body,
        purchases: [theirs[0], { ...real, nonce: otherNonce() }, { ...real, amount }],
      };
    };
    const { desk: restoring, dir } = await desk();
    const summary = await restore(restoring);
    expect(summary).toMatchObject({ purchases: 3, refused: 3, restoredPurchases: 0, reports: 0 });
    const [another, unused, more] = summary.problems.map((p) => p.reason);
    expect(another).toMatch(/^the chain shows no payment by this wallet with its authorization/);
    expect(unused).toBe(another);
    expect(more).toMatch(/^the chain's record of its payment differs \(amount: listed \d+, on chain \d+\)$/);
    expect(ledgerRows(dir)).toEqual([]);
    expect(storedSnapshots(dir)).toEqual([]);
  });

  it('keeps purchases the chain cannot be asked about outside the caps and totals', async () => {
    // Two purchases at the largest cap each, dated now, and no chain RPC for the demo network to ask.
    listInstead({ amount: LARGEST_CAP, nonce: otherNonce() }, { amount: LARGEST_CAP, nonce: otherNonce() });
    const { desk: restoring, dir } = await desk({ rpcUrl: undefined });
    expect(await restore(restoring)).toMatchObject({ restoredPurchases: 2, notOnChain: 2 });
    await restoring.handlers['settings.update']({ chainRpcUrl: stack.rpcUrl });
    expect(ledgerRows(dir)).toHaveLength(2);
    const view = await restoring.handlers['purchases.list']({});
    expect(view.spentTodayUnits).toBe('0');
    expect(view.purchases.map((p) => [p.restored, p.movedUnits, p.amount])).toEqual([
      ['unconfirmed', null, LARGEST_CAP],
      ['unconfirmed', null, LARGEST_CAP],
    ]);
    expect(await restoring.handlers['purchases.spend']({})).toMatchObject({
      lifetimeUnits: '0',
      todayUnits: '0',
    });

    // The next purchase is judged against today's real spend, not the service's word.
    const { quote, outcome } = await buyAll(restoring, handles[1]!);
    expect(outcome.status).toBe('completed');
    expect((await restoring.handlers['purchases.list']({})).spentTodayUnits).toBe(quote.amount);
  });

  it('sums amounts past SQLite integers, as an older restore recorded them', async () => {
    const { desk: reading, dir } = await desk();
    const file = new Database(path.join(dir, 'desk.db'));
    try {
      const insert = file.prepare(
        `INSERT INTO purchases (id, service_url, handle, resource, report_count, amount, network, asset, payer,
           pay_to, nonce, valid_before, quote_json, state, created_at, updated_at)
         VALUES (?, ?, 'legacy', '/r', 1, ?, 'eip155:31337', '', '', '', ?, 0, ?, 'completed', ?, ?)`,
      );
      const at = new Date().toISOString();
      const huge = '9'.repeat(30);
      // A restore before this fix: on the service's word, no onChain in its quote.
      insert.run('restored_old', front.url, huge, otherNonce(), JSON.stringify({ restored: { at } }), at, at);
      // Two rows that count, together past 2^63 - 1 base units.
      insert.run('legacy-1', front.url, huge, otherNonce(), '{}', at, at);
      insert.run('legacy-2', front.url, huge, otherNonce(), '{}', at, at);
    } finally {
      file.close();
    }
    const spend = await reading.handlers['purchases.spend']({});
    expect(spend.lifetimeUnits).toBe((2n * BigInt('9'.repeat(30))).toString());
    expect(spend.byHandle[0]).toMatchObject({ handle: 'legacy', purchases: 2 });
    const view = await reading.handlers['purchases.list']({});
    expect(view.purchases.find((p) => p.id === 'restored_old')).toMatchObject({
      restored: 'unconfirmed',
      movedUnits: null,
    });
  });

  it('counts a purchase the chain confirms, at once or on a later restore', async () => {
    // The first purchase as the service lists it (the wallet bought another above).
    listInstead({});
    // No chain RPC for the demo network: the purchase comes back, unconfirmed.
    const { desk: restoring, dir } = await desk({ rpcUrl: undefined });
    expect(await restore(restoring)).toMatchObject({
      restoredPurchases: 1,
      reports: bought.reports,
      notOnChain: 1,
    });
    expect((await restoring.handlers['purchases.spend']({})).lifetimeUnits).toBe('0');

    // With one, the next restore confirms it: an ordinary purchase, dated by its block.
    await restoring.handlers['settings.update']({ chainRpcUrl: stack.rpcUrl });
    expect(await restore(restoring)).toMatchObject({ alreadyHeld: 1, notOnChain: 0 });
    const [row] = ledgerRows(dir);
    expect(JSON.parse(row!.quote_json)).toMatchObject({ restored: { onChain: true } });
    const view = await restoring.handlers['purchases.list']({});
    expect(view.purchases[0]).toMatchObject({ restored: 'on_chain', movedUnits: bought.amount });
    expect((await restoring.handlers['purchases.spend']({})).lifetimeUnits).toBe(bought.amount);
    const receipt = await restoring.handlers['receipt.get']({ purchaseId: row!.id, verify: true });
    expect(receipt.verification).toMatchObject({ status: 'verified', blockTime: row!.created_at });

    // A desk with a chain RPC confirms it at once.
    const { desk: direct } = await desk();
    expect(await restore(direct)).toMatchObject({ restoredPurchases: 1, notOnChain: 0 });
    expect((await direct.handlers['purchases.spend']({})).lifetimeUnits).toBe(bought.amount);
  });
});
