/**
 * `intel-desk restore` without --from: the wallet signs in to the reference service with x (SIWx) and gets back,
 * free, every report it bought there, against a real service and chain. Checked: the reports and the ledger
 * after desk.db is deleted and in an empty folder with the same key, no money moved (balances), nothing for
 * another wallet, and a service whose copy differs from the receipt the library holds stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { RestoreSummary } from '../../src/shared/rpc';
import { damageReportsPage } from '../damage-library';
import { balanceOf, ledgerRows, storedSnapshots, tempDir } from '../core/helpers';
import { parsed, runCli, stackEnv, type Run } from './run-cli';

let stack: Stack;
let folders: ReturnType<typeof tempDir>[] = [];
let keyFile: string;
let otherKeyFile: string;
let handles: string[];
let bought: { ids: string[]; transactions: string[] };

function folder(): string {
  const made = tempDir('desk-cli-restore-');
  folders.push(made);
  return made.dir;
}
const cli = (dataDir: string, args: string[]): Promise<Run> => runCli(args, stackEnv(stack, dataDir));
const payer = () => privateKeyToAccount(stack.buyerKeys[0]!).address;

function restored(run: Run): RestoreSummary {
  expect(run.code, run.stderr).toBe(0);
  return parsed<RestoreSummary>(run);
}

let library: string;

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 2, minReportsPerHandle: 5, maxReportsPerHandle: 5 } });
  const keys = tempDir('desk-cli-restore-keys-');
  folders.push(keys);
  keyFile = path.join(keys.dir, 'buyer.key');
  otherKeyFile = path.join(keys.dir, 'other.key');
  writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
  writeFileSync(otherKeyFile, stack.buyerKeys[1]!, { mode: 0o600 });
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handles = shelf.entries.map((entry) => entry.username);

  library = folder();
  const all = await cli(library, ['buy', handles[0]!, '--all', '--yes', '--key-file', keyFile]);
  expect(all.code, all.stderr).toBe(0);
  const menu = parsed<{ reports: { id: string }[] }>(await cli(library, ['menu', handles[1]!, '--json']));
  const some = menu.reports.slice(1, 3).map((r) => r.id);
  const ids = await cli(library, [
    'buy',
    handles[1]!,
    '--ids',
    some.join(','),
    '--yes',
    '--key-file',
    keyFile,
  ]);
  expect(ids.code, ids.stderr).toBe(0);
  const rows = ledgerRows(library);
  bought = {
    ids: storedSnapshots(library)
      .map((s) => s.id)
      .sort(),
    transactions: rows.map((row) => row.tx_hash!).sort(),
  };
  expect(bought.ids).toHaveLength(7);
  expect(bought.transactions).toHaveLength(2);
});

afterAll(async () => {
  await stack?.stop();
  for (const made of folders) made.remove();
  folders = [];
});

describe('intel-desk restore (purchases from the service)', () => {
  it('brings every report back after desk.db is deleted, paying nothing', async () => {
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(path.join(library, `desk.db${suffix}`), { force: true });
    const before = await balanceOf(stack, payer());
    const payeeBefore = await balanceOf(stack, stack.payTo);

    const summary = restored(await cli(library, ['restore', '--key-file', keyFile, '--json']));
    expect(summary).toMatchObject({ purchases: 2, restoredPurchases: 2, reports: 7, alreadyHeld: 0 });
    expect(summary.address.toLowerCase()).toBe(payer().toLowerCase());
    expect(
      storedSnapshots(library)
        .map((s) => s.id)
        .sort(),
    ).toEqual(bought.ids);
    const rows = ledgerRows(library);
    expect(rows.map((row) => row.state)).toEqual(['completed', 'completed']);
    expect(rows.map((row) => row.tx_hash).sort()).toEqual(bought.transactions);
    expect(await balanceOf(stack, payer())).toBe(before);
    expect(await balanceOf(stack, stack.payTo)).toBe(payeeBefore);

    // A second run finds everything in place and stores nothing twice.
    const again = restored(await cli(library, ['restore', '--key-file', keyFile, '--json']));
    expect(again).toMatchObject({ purchases: 2, restoredPurchases: 0, alreadyHeld: 2 });
    expect(storedSnapshots(library)).toHaveLength(7);
    expect(ledgerRows(library)).toHaveLength(2);
  });

  it('fills an empty folder with the same key, and the restored receipts verify on chain', async () => {
    const fresh = folder();
    const run = await cli(fresh, ['restore', '--key-file', keyFile]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Brought back 7 reports from 2 purchases/);
    // The first page only, newest first; a limit that is not one is refused.
    expect(parsed<unknown[]>(await cli(fresh, ['library', '--limit', '2', '--json']))).toHaveLength(2);
    const badLimit = await cli(fresh, ['library', '--limit', '0']);
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toMatch(/--limit "0" is not a whole number from 1 to 1000/);
    const read = await cli(fresh, ['read', bought.ids[0]!]);
    expect(read.code, read.stderr).toBe(0);
    const receipt = await cli(fresh, ['receipt', ledgerRows(fresh)[0]!.id, '--verify', '--json']);
    expect(receipt.code, receipt.stderr).toBe(0);
    const verified = parsed<{ verification: { status: string }; reports: { inLibrary: boolean }[] }>(receipt);
    expect(verified.verification.status).toBe('verified');
    expect(verified.reports.every((r) => r.inLibrary)).toBe(true);
  });

  it('two restores at once in one folder store each purchase once', async () => {
    const both = folder();
    const runs = await Promise.all([
      cli(both, ['restore', '--key-file', keyFile, '--json']),
      cli(both, ['restore', '--key-file', keyFile, '--json']),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const summaries = runs.map((run) => parsed<RestoreSummary>(run));
    // Between them, each purchase was stored by one run and found in place by the other.
    expect(summaries[0]!.restoredPurchases + summaries[1]!.restoredPurchases).toBe(summaries[0]!.purchases);
    expect(ledgerRows(both)).toHaveLength(summaries[0]!.purchases);
    expect(new Set(storedSnapshots(both).map((s) => s.id)).size).toBe(storedSnapshots(both).length);
  });

  it('gives another wallet nothing', async () => {
    const summary = restored(await cli(folder(), ['restore', '--key-file', otherKeyFile, '--json']));
    expect(summary).toMatchObject({ purchases: 0, reports: 0 });
  });

  it('stores nothing the receipts contradict', async () => {
    const service = new Database(path.join(stack.dataDir, 'service.db'));
    try {
      service
        .prepare(`UPDATE settled_purchases SET body = replace(body, '"model":"', '"model":"x') WHERE seq = 1`)
        .run();
    } finally {
      service.close();
    }
    const summary = restored(await cli(library, ['restore', '--key-file', keyFile, '--json']));
    expect(summary).toMatchObject({ purchases: 2, differsFromReceipt: 1, alreadyHeld: 1, reports: 0 });
    expect(summary.problems[0]!.reason).toMatch(/differ from the receipt's SHA-256/);
  });

  it('after a damaged desk.db came back from an older backup, fetches what it lacks from the service', async () => {
    const dir = folder();
    const menu = parsed<{ reports: { id: string }[] }>(await cli(dir, ['menu', handles[0]!, '--json']));
    const [first, second] = menu.reports.map((r) => r.id);
    for (const id of [first!, second!]) {
      const run = await cli(dir, [
        'buy',
        handles[0]!,
        '--ids',
        id,
        '--yes',
        '--include-owned',
        '--key-file',
        keyFile,
      ]);
      expect(run.code, run.stderr).toBe(0);
    }
    // Each purchase left a copy; the newest is damaged as well, so the one before the second purchase is used.
    const damage = (file: string) => {
      const fd = openSync(file, 'r+');
      writeSync(fd, Buffer.alloc(3996, 0x5a), 0, 3996, 100);
      closeSync(fd);
    };
    const copies = readdirSync(path.join(dir, 'backups'))
      .filter((name) => /^desk-.*-purchase\.db$/.test(name))
      .sort();
    expect(copies).toHaveLength(2);
    damage(path.join(dir, 'backups', copies[1]!));
    damage(path.join(dir, 'desk.db'));

    const run = await cli(dir, ['library', '--json', '--key-file', keyFile]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/was restored: 1 report came back/);
    // What the wallet bought in this folder and before (beforeAll) comes back: 1 + 7 reports, 3 purchases.
    expect(run.stderr).toMatch(/Signed in to .*: 8 more reports from 3 purchases came back from the service/);
    expect(
      parsed<{ id: string }[]>(run)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...new Set([first!, second!, ...bought.ids])].sort());

    // Damage deep in the reports, which a start no longer reads whole: the run that meets it says so in words.
    const file = path.join(dir, 'desk.db');
    damageReportsPage(file, 'last');
    const met = await cli(dir, ['library']);
    expect(met.code).not.toBe(0);
    expect(met.stderr).toMatch(
      /The library file is damaged \(.*\)\. Run intel-desk again: the next run sets/,
    );

    // Without a key this run cannot sign: it says how instead.
    damage(path.join(dir, 'desk.db'));
    const locked = await cli(dir, ['library']);
    expect(locked.stderr).toMatch(/Run `intel-desk restore` with the wallet that bought them/);
  });

  it('needs a key to sign in with', async () => {
    const empty = folder();
    expect((await cli(empty, ['library', '--handle', 'nobody'])).stdout).toMatch(
      /You own no reports of @nobody\. `intel-desk menu nobody` shows what it offers\./,
    );
    const run = await cli(empty, ['restore']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/No wallet to sign in with/);
  });
});
