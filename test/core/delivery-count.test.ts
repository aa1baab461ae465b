/**
 * A paid answer must count what it carries and carry each report once. A hostile proxy (a real one on
 * loopback, in front of the reference service) lets the real payment settle on the real chain, then rewrites
 * the answer: a reportCount that disagrees with its reports, or one report twice. Nothing is stored and the
 * purchase is held in doubt, money moved.
 *
 * For a purchase of ids the duplicate is also caught by what is missing; the duplicate check alone stands for
 * a purchase recorded before the desk kept which ids it bought (an older release's ledger row). That case is a
 * purchase killed with its answer kept (SIGKILL after the answer was saved), whose row is then made the way an
 * older release wrote it, and whose kept answer the next start delivers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import type { PurchaseOutcome } from '../../src/shared/rpc';
import { balanceOf, deskFor, deskWithWallet, ledgerRows, storedSnapshots, tempDir } from './helpers';
import { startHostileProxy, type HostileProxy } from './hostile-proxy';

const root = path.resolve(import.meta.dirname, '../..');

let stack: Stack;
let proxy: HostileProxy;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let payer: `0x${string}`;
let handle: string;
let ids: string[];
const dirs: ReturnType<typeof tempDir>[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 8, maxReportsPerHandle: 8 },
    buyerCount: 1,
  });
  proxy = await startHostileProxy(stack.baseUrl);
  data = tempDir('desk-delivery-count-');
  ({ desk, address: payer } = await deskWithWallet(stack, data.dir, 0, { serviceUrl: proxy.url }));
  handle = (await desk.handlers['shelf.list']({})).entries[0]!.username;
  ids = (await desk.handlers['menu.get']({ handle })).reports.map((r) => r.id);
});
afterEach(() => {
  proxy.rewritePaid = null;
});
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await stack?.stop();
  data?.remove();
  for (const dir of dirs) dir.remove();
});

async function buyIds(chosen: string[]): Promise<PurchaseOutcome> {
  const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: chosen } });
  return desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount });
}

/** Held in doubt with the reason, the money gone on chain, nothing of the answer in the library. */
async function expectHeld(outcome: PurchaseOutcome, reason: RegExp, spent: bigint, before: bigint) {
  if (outcome.status !== 'in_doubt') throw new Error(`expected in doubt, got ${outcome.status}`);
  expect(outcome.message).toMatch(reason);
  expect(outcome.purchase).toMatchObject({
    state: 'in_doubt',
    reportIds: [],
    waitingFor: { kind: 'redelivery' },
  });
  expect(await balanceOf(stack, payer)).toBe(before - spent);
  const row = ledgerRows(data.dir).find((r) => r.id === outcome.purchase.id);
  expect(row).toMatchObject({ state: 'in_doubt', amount: spent.toString() });
  expect(storedSnapshots(data.dir).filter((s) => s.purchase_id === outcome.purchase.id)).toEqual([]);
}

describe('a paid answer that miscounts its reports', () => {
  it('is held in doubt when its reportCount says more than it carries', async () => {
    const before = await balanceOf(stack, payer);
    proxy.rewritePaid = async (body) => ({ ...body, reportCount: body.reportCount + 1 });
    const outcome = await buyIds([ids[0]!, ids[1]!]);
    await expectHeld(outcome, /answered with a count of 3 but 2 reports/, 20_000n, before);
  });

  it('is held in doubt when its reportCount says less than it carries', async () => {
    const before = await balanceOf(stack, payer);
    proxy.rewritePaid = async (body) => ({ ...body, reportCount: body.reportCount - 1 });
    const outcome = await buyIds([ids[2]!, ids[3]!]);
    await expectHeld(outcome, /answered with a count of 1 but 2 reports/, 20_000n, before);
  });

  it('is held in doubt when it carries one report twice', async () => {
    const before = await balanceOf(stack, payer);
    proxy.rewritePaid = async (body) => ({ ...body, reports: [body.reports[0]!, body.reports[0]!] });
    const outcome = await buyIds([ids[4]!, ids[5]!]);
    await expectHeld(outcome, new RegExp(`answered with report ${ids[4]} more than once`), 20_000n, before);
  });
});

describe('a kept answer with one report twice, for a purchase of an older release', () => {
  it('is held in doubt on the next start, and nothing of it is stored', async () => {
    const dir = tempDir('desk-delivery-count-legacy-');
    dirs.push(dir);
    const bought = [ids[6]!, ids[7]!];
    proxy.rewritePaid = async (body) => ({ ...body, reports: [body.reports[0]!, body.reports[0]!] });
    const before = await balanceOf(stack, payer);
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/core/fixtures/crash-purchase.ts'], {
      cwd: root,
      env: {
        ...process.env,
        CRASH_AT: 'response_received',
        DATA_DIR: dir.dir,
        SERVICE_URL: proxy.url,
        RPC_URL: stack.rpcUrl,
        DEMO_ASSET: stack.asset,
        BUYER_KEY: stack.buyerKeys[0]!,
        HANDLE: handle,
        REPORT_IDS: bought.join(','),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe('SIGKILL');
    expect(await balanceOf(stack, payer)).toBe(before - 20_000n);

    // The row as a release before selections and ids were recorded left it: only the handle and the count
    // say what was bought. Its answer was kept (the process died just after saving it).
    const db = new Database(path.join(dir.dir, 'desk.db'));
    try {
      const row = db.prepare('SELECT id, quote_json, response_json FROM purchases').get() as {
        id: string;
        quote_json: string;
        response_json: string | null;
      };
      expect(row.response_json).toContain(bought[0]);
      const {
        selection: _selection,
        expectedIds: _expectedIds,
        ...older
      } = JSON.parse(row.quote_json) as Record<string, unknown>;
      db.prepare('UPDATE purchases SET quote_json = ? WHERE id = ?').run(JSON.stringify(older), row.id);
    } finally {
      db.close();
    }

    const later = await deskFor(stack, dir.dir, { serviceUrl: proxy.url });
    try {
      const { purchases } = await later.handlers['purchases.reconcile']({});
      expect(purchases).toHaveLength(1);
      expect(purchases[0]).toMatchObject({
        state: 'in_doubt',
        reportIds: [],
        waitingFor: { kind: 'redelivery' },
      });
      expect(purchases[0]?.error).toMatch(new RegExp(`answered with report ${bought[0]} more than once`));
      expect((await later.handlers['library.list']({})).items).toEqual([]);
    } finally {
      await later.close();
    }
    expect(storedSnapshots(dir.dir)).toEqual([]);
    expect(ledgerRows(dir.dir).map((row) => row.state)).toEqual(['in_doubt']);
    expect(await balanceOf(stack, payer)).toBe(before - 20_000n);
  });
});
