/**
 * The desktop app and the command-line client on one data dir at the same time: the app's core (in this
 * process) buys and keeps writing settings and caches while CLI processes buy other reports into the same
 * desk.db. Neither may fail on the other's lock, lose a write, or store a report under the wrong purchase.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { PurchaseOutcome } from '../../src/shared/rpc';
import { createDeskCore } from '../../src/core';
import {
  balanceOf,
  deskFor,
  deskWithWallet,
  ledgerRows,
  PASSPHRASE,
  storedSnapshots,
  tempDir,
} from '../core/helpers';
import { parsed, runCli } from './run-cli';

const ROUNDS = 3;
let stack: Stack;
let handles: [string, string];
const menus = new Map<string, string[]>();

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: ROUNDS, maxReportsPerHandle: ROUNDS },
    buyerCount: 2,
  });
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handles = [shelf.entries[0]!.username, shelf.entries[1]!.username];
  for (const handle of handles) {
    const menu = (await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json()) as {
      reports: { id: string }[];
    };
    menus.set(
      handle,
      menu.reports.map((r) => r.id),
    );
  }
});
afterAll(async () => {
  await stack?.stop();
});

describe('the CLI and the app on one desk.db', () => {
  it('buy, cache and record at the same time, and neither loses a write', async () => {
    const data = tempDir('desk-shared-db-');
    const { desk, address: appPayer } = await deskWithWallet(stack, data.dir, 0);
    try {
      const cliPayer = privateKeyToAccount(stack.buyerKeys[1]!).address;
      const before = { app: await balanceOf(stack, appPayer), cli: await balanceOf(stack, cliPayer) };
      const [appHandle, cliHandle] = handles;
      let appWrites = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const cli = runCli(['buy', cliHandle, '--ids', menus.get(cliHandle)![round]!, '--yes', '--json'], {
          INTEL_DESK_SERVICE_URL: stack.baseUrl,
          INTEL_DESK_DATA_DIR: data.dir,
          INTEL_DESK_RPC_URL: stack.rpcUrl,
          INTEL_DESK_DEMO: '1',
          INTEL_DESK_DEMO_ASSET: stack.asset,
          INTEL_DESK_PRIVATE_KEY: stack.buyerKeys[1]!,
          INTEL_DESK_PASSPHRASE: undefined,
        });
        let cliDone = false;
        void cli.then(() => (cliDone = true));
        // The app: one purchase, and settings and cache writes for as long as the CLI runs.
        const app = (async () => {
          const quote = await desk.handlers['quote.get']({
            handle: appHandle,
            selection: { kind: 'ids', ids: [menus.get(appHandle)![round]!] },
          });
          const outcome = await desk.handlers['purchase.start']({
            quoteId: quote.quoteId,
            confirmedAmount: quote.amount,
          });
          do {
            await desk.handlers['settings.update']({
              dailyCapUnits: '20000000' + (appWrites++ % 7),
              passphrase: PASSPHRASE,
            });
            await desk.handlers['shelf.list']({});
            await desk.handlers['purchases.list']({});
          } while (!cliDone);
          return outcome;
        })();
        const [cliRun, appOutcome] = await Promise.all([cli, app]);
        expect(cliRun.stderr).not.toMatch(/SQLITE_BUSY|database is locked/i);
        expect(cliRun.code, cliRun.stderr).toBe(0);
        expect(parsed<PurchaseOutcome>(cliRun).status).toBe('completed');
        expect(appOutcome.status).toBe('completed');
      }
      expect(appWrites).toBeGreaterThan(ROUNDS);

      // Every purchase of both is in the ledger, completed, and its reports are stored under it.
      const rows = ledgerRows(data.dir);
      expect(rows).toHaveLength(2 * ROUNDS);
      expect(rows.every((row) => row.state === 'completed')).toBe(true);
      const snapshots = storedSnapshots(data.dir);
      for (const [handle, payer] of [
        [appHandle, appPayer],
        [cliHandle, cliPayer],
      ] as const) {
        const mine = rows.filter((row) => row.handle === handle);
        expect(mine.map((row) => row.payer)).toEqual(Array(ROUNDS).fill(payer));
        const stored = snapshots.filter((s) => mine.some((row) => row.id === s.purchase_id));
        expect(stored.map((s) => s.id).sort()).toEqual([...menus.get(handle)!].sort());
        expect(stored.every((s) => s.handle.toLowerCase() === handle.toLowerCase())).toBe(true);
      }
      expect(await balanceOf(stack, appPayer)).toBe(before.app - BigInt(ROUNDS) * 10_000n);
      expect(await balanceOf(stack, cliPayer)).toBe(before.cli - BigInt(ROUNDS) * 10_000n);
      // The app sees what the CLI bought, without a restart.
      expect((await desk.handlers['library.list']({ handle: cliHandle })).items).toHaveLength(ROUNDS);
      expect((await desk.handlers['purchases.list']({})).purchases).toHaveLength(2 * ROUNDS);
    } finally {
      await desk.close();
      data.remove();
    }
  });
});

describe('a service named for one CLI run', () => {
  it('is used for that run only: the app on the same desk.db keeps the service chosen in Settings', async () => {
    const data = tempDir('desk-shared-service-');
    const chosen = stack.baseUrl;
    const forOneRun = stack.baseUrl.replace('127.0.0.1', 'localhost');
    const app = await deskFor(stack, data.dir);
    try {
      await app.handlers['settings.update']({ serviceUrl: chosen });
      const run = await runCli(['list', '--json'], {
        INTEL_DESK_SERVICE_URL: forOneRun,
        INTEL_DESK_DATA_DIR: data.dir,
        INTEL_DESK_DEMO: '1',
      });
      expect(run.code, run.stderr).toBe(0);
      expect((await app.handlers['settings.get']({})).serviceUrl).toBe(chosen);
      expect((await app.handlers['app.info']({})).serviceUrl).toBe(chosen);
    } finally {
      await app.close();
    }
    // Nor does that run decide the next one's: a desk opened with no service named uses the chosen one.
    const next = await createDeskCore({
      dataDir: data.dir,
      demo: true,
      walletKdfCost: 'fast-insecure-for-tests',
    });
    try {
      expect((await next.handlers['settings.get']({})).serviceUrl).toBe(chosen);
      // A service chosen in Settings replaces the one named for the run, and is kept.
      const named = await createDeskCore({
        dataDir: data.dir,
        serviceUrl: forOneRun,
        demo: true,
        walletKdfCost: 'fast-insecure-for-tests',
      });
      try {
        expect((await named.handlers['settings.get']({})).serviceUrl).toBe(forOneRun);
        await named.handlers['settings.update']({ serviceUrl: `${chosen}/` });
        expect((await named.handlers['settings.get']({})).serviceUrl).toBe(`${chosen}/`);
      } finally {
        await named.close();
      }
    } finally {
      await next.close();
      data.remove();
    }
  });
});
