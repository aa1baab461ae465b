/**
 * The CLI end to end against the reference service and anvil: a JSON keystore imported and unlocked from the
 * environment, buy all, buy a date range, buy the missing ones by id, then read and search with the service
 * stopped (a proxy in front of it refuses connections). Each test has a data dir of its own.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { MenuView, PurchaseOutcome, ShelfView, WalletView } from '../../src/shared/rpc';
import { PASSPHRASE, balanceOf, ledgerRows, tempDir, v3Keystore } from '../core/helpers';
import { startFlakyProxy, type FlakyProxy } from '../core/flaky-proxy';
import { startHostileProxy, withoutPaymentIdentifier } from '../core/hostile-proxy';
import { expectSettledAsRecorded } from '../core/chain-checks';
import { parsed, runCli, stackEnv, type Run } from './run-cli';

let stack: Stack;
let proxy: FlakyProxy;
let handles: string[];
const UNLOCK = { INTEL_DESK_PASSPHRASE: PASSPHRASE };
const dirs: ReturnType<typeof tempDir>[] = [];
let dataDir: string;

/** A data dir for this test alone; `cli` works in the latest one. */
function freshDataDir(): string {
  const data = tempDir('desk-cli-flow-');
  dirs.push(data);
  dataDir = data.dir;
  return data.dir;
}

function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return runCli(args, { ...stackEnv(stack, dataDir), INTEL_DESK_SERVICE_URL: proxy.url, ...env });
}

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 3, minReportsPerHandle: 5, maxReportsPerHandle: 5 },
    buyerCount: 1,
  });
  proxy = await startFlakyProxy(stack.baseUrl);
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as ShelfView;
  handles = shelf.entries.map((e) => e.username);
});
afterEach(async () => {
  await proxy.up().catch(() => undefined);
  for (const dir of dirs.splice(0)) dir.remove();
});
afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
});

/** A key for the run only: these tests are not about the keystore, whose real cost is seconds per command. */
const SESSION_KEY = () => ({ INTEL_DESK_PRIVATE_KEY: stack.buyerKeys[0]! });

describe('intel-desk from keystore to offline reading', () => {
  it('imports a JSON keystore, then buys all, a date range, and the missing ones by id', async () => {
    const dir = freshDataDir();
    const keystoreFile = path.join(dir, 'buyer.keystore.json');
    writeFileSync(keystoreFile, v3Keystore(stack.buyerKeys[0]!, 'geth pw'), { mode: 0o600 });
    const imported = await cli(['wallet', 'import', '--keystore', keystoreFile, '--json'], {
      ...UNLOCK,
      INTEL_DESK_KEYSTORE_PASSWORD: 'geth pw',
    });
    expect(imported.code).toBe(0);
    expect(parsed<WalletView>(imported)).toMatchObject({
      kind: 'keystore',
      address: privateKeyToAccount(stack.buyerKeys[0]!).address,
    });
    expect(parsed<ShelfView>(await cli(['list', '--json'])).entries.map((e) => e.username)).toEqual(handles);
    const [first, second] = handles as [string, string];
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const start = await balanceOf(stack, payer);

    const locked = await cli(['buy', first, '--all', '--yes']);
    expect(locked.code).toBe(3);
    expect(locked.stderr).toMatch(/Unlock the wallet/);
    // Says how to unlock, and nothing before it reads as if a payment were under way.
    expect(locked.stderr).toMatch(
      /\$INTEL_DESK_PASSPHRASE \(or name another variable with --passphrase-env VAR\)/,
    );
    expect(locked.stderr).not.toMatch(/paying/);

    const all = await cli(['buy', first, '--all', '--yes', '--json'], UNLOCK);
    expect(all.code).toBe(0);
    expect(all.stderr).toContain('asking the service for the live price…');
    expect(all.stderr).toContain('paying $0.05 for 5 reports…');
    expect(parsed<PurchaseOutcome>(all)).toMatchObject({ status: 'completed', purchase: { reportCount: 5 } });

    const menu = parsed<MenuView>(await cli(['menu', second, '--json']));
    const range = await cli(['buy', second, '--from', menu.reports[1]!.createdAt, '--yes', '--json'], UNLOCK);
    expect(range.code).toBe(0);
    const ranged = parsed<PurchaseOutcome>(range);
    if (ranged.status !== 'completed') throw new Error(range.stdout);
    expect(ranged.purchase.reportIds).toEqual(menu.reports.slice(0, 2).map((r) => r.id));

    const missing = await cli(['buy', second, '--missing', '--yes', '--json'], UNLOCK);
    const rest = parsed<PurchaseOutcome>(missing);
    if (rest.status !== 'completed') throw new Error(missing.stdout);
    expect(rest.purchase.resource).toContain('ids=');
    expect(rest.purchase.reportIds.sort()).toEqual(
      menu.reports
        .slice(2)
        .map((r) => r.id)
        .sort(),
    );
    const owned = parsed<MenuView>(await cli(['menu', second, '--json'])).reports.every((r) => r.owned);
    expect(owned).toBe(true);

    // Where the money is: three payments of 5, 2 and 3 reports, each in the ledger as it settled on chain.
    const rows = ledgerRows(dir);
    expect(rows.map((row) => [row.handle, row.report_count, row.amount, row.state])).toEqual([
      [first, 5, '50000', 'completed'],
      [second, 2, '20000', 'completed'],
      [second, 3, '30000', 'completed'],
    ]);
    expect(rows.map((row) => row.id)).toEqual(
      [all, range, missing].map((run) => {
        const outcome = parsed<PurchaseOutcome>(run);
        return outcome.status === 'needs_signature' ? null : outcome.purchase?.id;
      }),
    );
    for (const row of rows) await expectSettledAsRecorded(stack, row);
    expect(start - (await balanceOf(stack, payer))).toBe(100_000n);
    // Each of the four keystore steps derives a key at the real cost (scrypt N=2^17) in a fresh CLI process.
  }, 120_000);

  it('lists, reads and searches with the service stopped, and refuses to buy with a clear reason', async () => {
    freshDataDir();
    // Seen once online: the shelf is what an offline `list` shows from its last copy.
    expect((await cli(['list'])).code).toBe(0);
    for (const handle of handles.slice(0, 2)) {
      expect((await cli(['buy', handle, '--all', '--yes'], SESSION_KEY())).code).toBe(0);
    }
    proxy.down();
    const shelf = await cli(['list']);
    expect(shelf.code).toBe(0);
    expect(shelf.stdout).toMatch(/^\(offline: copy from .* UTC, \d+ \w+ old; Cannot reach the service/);
    // A menu from the cache says the same: offline, and how old the copy is.
    const cachedMenu = await cli(['menu', handles[1]!]);
    expect(cachedMenu.code).toBe(0);
    expect(cachedMenu.stdout).toMatch(
      /^\(offline: copy from \d{4}-\d\d-\d\d \d\d:\d\d UTC, \d+ (second|minute)s? old; Cannot reach the service/,
    );
    const library = parsed<{ id: string }[]>(await cli(['library', '--json']));
    expect(library).toHaveLength(10);
    const read = await cli(['read', library[0]!.id]);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('## Summary');
    const search = parsed<unknown[]>(await cli(['search', 'posted', '--json']));
    expect(search.length).toBeGreaterThan(0);
    // A handle with nothing owned yet: for one owned in full the answer is "You own all 5 reports" (exit 2).
    const before = await balanceOf(stack, privateKeyToAccount(stack.buyerKeys[0]!).address);
    const buy = await cli(['buy', handles[2]!, '--all', '--yes'], SESSION_KEY());
    expect(buy.code).toBe(5);
    expect(await balanceOf(stack, privateKeyToAccount(stack.buyerKeys[0]!).address)).toBe(before);
    expect(buy.stderr).toMatch(/Cannot reach the service/);
    // Eight CLI processes, each a fresh Node with tsx.
  }, 120_000);

  it('tells about an in-doubt purchase on every later command, and never pays it again', async () => {
    const dir = freshDataDir();
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const lost = await startHostileProxy(stack.baseUrl);
    // The service settles, then its answer never arrives; it keeps no answers to ask for again (decision 0022).
    lost.beforePaidAnswer = () => new Promise<void>(() => undefined);
    lost.mutate = withoutPaymentIdentifier;
    const atLost = { INTEL_DESK_SERVICE_URL: lost.url, ...SESSION_KEY() };
    try {
      const menu = parsed<MenuView>(await cli(['menu', handles[2]!, '--json'], atLost));
      const id = menu.reports[0]!.id;
      const before = await balanceOf(stack, payer);
      const args = ['buy', handles[2]!, '--ids', id, '--yes', '--timeout', '2'];
      const buy = await cli(args, atLost);
      expect(buy.code).toBe(5);
      expect(buy.stdout).toMatch(/^IN DOUBT: The answer was lost/);
      // Paid once on chain, and the ledger holds it in doubt with the receipt.
      expect(await balanceOf(stack, payer)).toBe(before - 10_000n);
      const [row] = ledgerRows(dir);
      expect(row).toMatchObject({
        state: 'in_doubt',
        amount: '10000',
        handle: handles[2],
        service_url: lost.url,
      });

      const later = await cli(['library'], atLost);
      expect(later.code).toBe(0);
      expect(later.stderr).toMatch(
        /1 purchase in doubt, never paid again automatically\. Waiting for the service to deliver what was paid for\./,
      );
      const history = await cli(['purchases'], atLost);
      expect(history.stdout).toMatch(/in_doubt .*0x[0-9a-f]{64}\s+Waiting for the service to deliver/);
      // Its price says so before buying; asked to buy the same report again, it refuses and signs nothing.
      const priced = await cli(['quote', ...args.slice(1, 4)], atLost);
      expect(priced.stdout).toMatch(
        /an earlier purchase of these reports \(\S+\) is in doubt: buy refuses them/,
      );
      const again = await cli(args, atLost);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toMatch(/An earlier purchase of these reports .* is in doubt/);
      expect(lost.paymentsSeen).toHaveLength(1);
      expect(await balanceOf(stack, payer)).toBe(before - 10_000n);
      expect(ledgerRows(dir)).toHaveLength(1);
    } finally {
      await lost.close();
    }
  }, 120_000);
});
