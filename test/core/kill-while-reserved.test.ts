/**
 * Two desk processes on one data folder: the first is killed with SIGKILL at a step of a purchase, and the
 * second, which wanted the same reports, buys them next. Whatever step the first died at, the reports are paid
 * once on the chain, and the selection is never blocked for good: what the dead process never sent is freed at
 * once (its reservation names a process that is gone), and what it may have sent waits for the chain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { PurchaseStep } from '../../src/core';
import { bundleDeskWorker } from '../../scripts/chaos/bundle';
import { settlementsOnChain } from '../../scripts/chaos/chain';
import { DESK_CLOCK_EXPIRY_MARGIN_MS } from '../../src/core/payments/chain-state';
import { DeskProcess, type CommandResult } from '../../scripts/chaos/desk-process';
import { ledgerRows } from './helpers';

const PASSPHRASE = 'kill while reserved, anvil test keys only';
let stack: Stack;
let worker: { file: string; remove(): void };
let handle: string;
let ids: string[];
const dirs: string[] = [];

beforeAll(async () => {
  [stack, worker] = await Promise.all([
    startStack({ seed: { handles: 1, minReportsPerHandle: 6, maxReportsPerHandle: 6 }, buyerCount: 1 }),
    bundleDeskWorker(),
  ]);
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handle = shelf.entries[0]!.username;
  const menu = (await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json()) as {
    reports: { id: string }[];
  };
  ids = menu.reports.map((report) => report.id);
}, 120_000);
afterAll(async () => {
  worker?.remove();
  await stack?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function deskOn(dataDir: string): DeskProcess {
  return new DeskProcess({
    workerFile: worker.file,
    dataDir,
    serviceUrl: stack.baseUrl,
    rpcUrl: stack.rpcUrl,
    demoAsset: stack.asset,
    passphrase: PASSPHRASE,
    timeoutMs: 5_000,
    chainTimeoutMs: 2_000,
  });
}

function ok(result: CommandResult): unknown {
  if (result.kind !== 'ok') throw new Error(`expected an answer, got ${JSON.stringify(result)}`);
  return result.result;
}

/** Two processes on a new folder sharing one wallet: the first imports it, the second unlocks it as it starts. */
async function twoDesks(): Promise<{ dataDir: string; first: DeskProcess; second: DeskProcess }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-kill-reserved-'));
  dirs.push(dataDir);
  const first = deskOn(dataDir);
  await first.start();
  ok(await first.send({ op: 'useBuyer', key: stack.buyerKeys[0]! }));
  const second = deskOn(dataDir);
  await second.start();
  return { dataDir, first, second };
}

const buy = (desk: DeskProcess, id: string, killAt: PurchaseStep | null = null) =>
  desk.send({ op: 'buy', handle, selection: { kind: 'ids', ids: [id] }, skewMs: 0, killAt });

/** AuthorizationUsed events on the token for the nonces this folder's ledger holds. */
async function settledFor(dataDir: string): Promise<number> {
  const nonces = new Set(ledgerRows(dataDir).map((row) => row.nonce.toLowerCase()));
  return (await settlementsOnChain(stack.chain)).filter((s) => nonces.has(s.nonce)).length;
}

describe('a process killed while it holds a purchase, another waiting for the same reports', () => {
  // Never sent: the reservation names a dead process, so the other buys at once.
  for (const [index, step] of (['signing', 'ledger_written'] as const).entries()) {
    it(`killed at "${step}": the other process buys at once, and pays once`, async () => {
      const { dataDir, first, second } = await twoDesks();
      try {
        const id = ids[index]!;
        expect((await buy(first, id, step)).kind).toBe('killed');
        await first.gone();
        expect(ok(await buy(second, id))).toMatchObject({ status: 'completed' });
        ok(await second.send({ op: 'reconcile', skewMs: 0 }));
        const rows = ledgerRows(dataDir);
        expect(rows.filter((row) => row.state === 'completed')).toHaveLength(1);
        expect(rows.filter((row) => row.state !== 'completed' && row.state !== 'failed')).toEqual([]);
        expect(await settledFor(dataDir)).toBe(1);
      } finally {
        await second.stop();
      }
    }, 60_000);
  }

  it('killed once sent: the other is refused until the chain decides, then buys, and pays once', async () => {
    const { dataDir, first, second } = await twoDesks();
    try {
      const id = ids[2]!;
      expect((await buy(first, id, 'sent')).kind).toBe('killed');
      await first.gone();
      // The request may have left: nothing is signed for the same reports while that is unknown.
      const refused = await buy(second, id);
      expect(refused).toMatchObject({ kind: 'refused', code: 'purchase_in_doubt' });
      ok(await second.send({ op: 'reconcile', skewMs: 0 }));
      expect(ledgerRows(dataDir).map((row) => row.state)).toEqual(['in_doubt']);
      // Once the desk's clock is past validBefore and its margin, the unused authorization can never settle
      // (the chain still says unused): the purchase is failed.
      const closed = ledgerRows(dataDir)[0]!.valid_before * 1000 + DESK_CLOCK_EXPIRY_MARGIN_MS;
      ok(await second.send({ op: 'reconcile', skewMs: closed + 1_000 - Date.now() }));
      expect(ledgerRows(dataDir).map((row) => row.state)).toEqual(['failed']);
      expect(ok(await buy(second, id))).toMatchObject({ status: 'completed' });
      expect(await settledFor(dataDir)).toBe(1);
    } finally {
      await second.stop();
    }
  }, 90_000);

  it('killed after the answer arrived: the other delivers the kept answer and buys nothing more', async () => {
    const { dataDir, first, second } = await twoDesks();
    try {
      const id = ids[3]!;
      expect((await buy(first, id, 'response_received')).kind).toBe('killed');
      await first.gone();
      expect(await buy(second, id)).toMatchObject({ kind: 'refused', code: 'purchase_in_doubt' });
      ok(await second.send({ op: 'reconcile', skewMs: 0 }));
      expect(ledgerRows(dataDir).map((row) => row.state)).toEqual(['completed']);
      expect(await buy(second, id)).toMatchObject({ kind: 'refused', code: 'all_owned' });
      expect(await settledFor(dataDir)).toBe(1);
    } finally {
      await second.stop();
    }
  }, 60_000);
});
