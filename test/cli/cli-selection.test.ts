/**
 * What the CLI buys: ISO dates only (a misread date would buy the wrong reports), and owned reports left out
 * unless --include-owned (or --rebuy) asks to pay for them again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import type { MenuView, PurchaseOutcome, QuoteView } from '../../src/shared/rpc';
import { tempDir } from '../core/helpers';
import { parsed, runCli, stackEnv, type Run } from './run-cli';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let keyFile: string;
let handle: string;
/** Never bought from: its quotes are unaffected by what the other test owns. */
let other: string;

function cli(args: string[]): Promise<Run> {
  return runCli(args, stackEnv(stack, data.dir));
}

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 5, maxReportsPerHandle: 5 },
    buyerCount: 1,
  });
  data = tempDir('desk-cli-selection-');
  keyFile = path.join(data.dir, 'buyer.key');
  writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handle = shelf.entries[0]!.username;
  other = shelf.entries[1]!.username;
});
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

describe('intel-desk selection flags', () => {
  it('leaves owned reports out of --all unless --include-owned or --rebuy asks to buy them again', async () => {
    const menu = parsed<MenuView>(await cli(['menu', handle, '--json']));
    const from = menu.reports[1]!.createdAt;
    const range = await cli(['buy', handle, '--from', from, '--yes', '--key-file', keyFile, '--json']);
    expect(range.code, range.stderr).toBe(0);
    expect(parsed<PurchaseOutcome>(range)).toMatchObject({ status: 'completed' });

    const missing = parsed<QuoteView>(await cli(['quote', handle, '--all', '--json']));
    expect(missing).toMatchObject({
      reportCount: 3,
      ownedCount: 2,
      missingCount: 3,
      includesOwned: false,
      ownedCostUnits: '20000',
      amount: '30000',
      selection: { kind: 'ids', ids: menu.reports.slice(2).map((r) => r.id) },
    });
    const human = await cli(['quote', handle, '--all']);
    expect(human.stdout).toMatch(/2 reports you already own are left out \(buying them again: \$0\.02/);
    for (const flag of ['--include-owned', '--rebuy']) {
      const again = parsed<QuoteView>(await cli(['quote', handle, '--all', flag, '--json']));
      expect(again).toMatchObject({ reportCount: 5, ownedCount: 2, includesOwned: true, amount: '50000' });
    }

    const rest = await cli(['buy', handle, '--all', '--yes', '--key-file', keyFile, '--json']);
    expect(rest.code).toBe(0);
    const outcome = parsed<PurchaseOutcome>(rest);
    expect(outcome.status === 'completed' && outcome.purchase.reportIds).toEqual(
      menu.reports.slice(2).map((r) => r.id),
    );

    const none = await cli(['quote', handle, '--all']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /You own all 5 reports of @\w+ you chose; nothing is missing\. Add --include-owned/,
    );
    const missingFlag = await cli(['buy', handle, '--missing', '--yes', '--key-file', keyFile]);
    expect(missingFlag.code).toBe(2);
    expect(missingFlag.stderr).toMatch(/You own all 5 reports/);
  }, 240_000);

  it('accepts ISO dates only and names the bad value, with exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--from', '01/10/2026'], /--from "01\/10\/2026" is not a date: use an ISO date such as 2026-10-01/],
      [['--from', '2026-13-01'], /--from "2026-13-01" is not a date/],
      [['--to', '2026-02-30'], /--to "2026-02-30" is not a date/],
      [['--from', 'yesterday'], /--from "yesterday" is not a date/],
      [['--from', '2026-10-02', '--to', '2026-10-01'], /--from 2026-10-02 is after --to 2026-10-01/],
      [['--from', '2026-10-01', '--missing'], /--missing cannot be combined with --from\/--to/],
    ];
    for (const [flags, message] of cases) {
      const run = await cli(['quote', handle, ...flags]);
      expect(run.code, flags.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
  }, 240_000);

  it('covers whole days for a plain ISO date', async () => {
    const menu = parsed<MenuView>(await cli(['menu', other, '--json']));
    const day = menu.reports[0]!.createdAt.slice(0, 10);
    const sameDay = menu.reports.filter((r) => r.createdAt.startsWith(day)).length;
    const quote = await cli(['quote', other, '--from', day, '--to', day, '--json']);
    expect(quote.code).toBe(0);
    expect(parsed<QuoteView>(quote)).toMatchObject({ reportCount: sameDay, ownedCount: 0 });
  });
});
