/**
 * `intel-desk spend` and `intel-desk budget` against the reference service and anvil: the totals the
 * Purchases screen shows, and a handle's monthly budget that a purchase goes over only with --over-cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import type { MenuView, ShelfView, SpendView } from '../../src/shared/rpc';
import { localDayKey } from '../../src/shared/money';
import { tempDir } from '../core/helpers';
import { sameDayOffset } from '../core/clock';
import { parsed, runCli, sameDayCliClock, stackEnv, type Run } from './run-cli';

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let keyFile: string;
let handle: string;
let ids: string[];
// The spend totals and the byDay keys are read on the desk's day, which must not change during the file.
const clock = sameDayCliClock(sameDayOffset());

function cli(args: string[]): Promise<Run> {
  return runCli(args, { ...stackEnv(stack, data.dir), ...clock.env });
}

const buy = (reportIds: string[], ...flags: string[]) =>
  cli(['buy', handle, '--ids', reportIds.join(','), '--yes', '--key-file', keyFile, ...flags]);

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 6, maxReportsPerHandle: 6 },
    buyerCount: 1,
  });
  data = tempDir('desk-cli-spend-');
  keyFile = path.join(data.dir, 'buyer.key');
  writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
  handle = parsed<ShelfView>(await cli(['list', '--json'])).entries[0]!.username;
  ids = parsed<MenuView>(await cli(['menu', handle, '--json'])).reports.map((r) => r.id);
});
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

describe('intel-desk budget and spend', () => {
  it('sets a budget, refuses going over it without --over-cap, and spend shows it all', async () => {
    const set = await cli(['budget', handle, '0.03']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`@${handle}: $0.03 a month`);

    const first = await buy(ids.slice(0, 2));
    expect(first.code, first.stderr).toBe(0);

    const quote = await cli(['quote', handle, '--ids', ids.slice(2, 4).join(',')]);
    expect(quote.stdout).toContain(`over the monthly budget for @${handle}: add --over-cap to buy anyway`);
    const refused = await buy(ids.slice(2, 4));
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/over its monthly budget of \$0\.03; add --over-cap to go over it\./);
    expect(refused.stderr).toContain('[over_handle_budget]');

    const over = await buy(ids.slice(2, 4), '--over-cap');
    expect(over.code, over.stderr).toBe(0);

    const json = await cli(['spend', '--json', '--days', '3']);
    expect(json.code, json.stderr).toBe(0);
    const view = parsed<SpendView>(json);
    // JSON carries the contract's shape: money as base-unit strings.
    expect(view).toMatchObject({ lifetimeUnits: '40000', monthUnits: '40000', todayUnits: '40000' });
    expect(view.byHandle).toEqual([
      { handle, totalUnits: '40000', monthUnits: '40000', purchases: 2, budgetUnits: '30000' },
    ]);
    expect(view.byDay.map((d) => d.day)).toHaveLength(3);
    expect(view.byDay.at(-1)).toEqual({ day: localDayKey(clock.now()), units: '40000' });

    const text = await cli(['spend']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^today: +\$0\.04 of your \$\d+\.\d\d daily cap$/m);
    expect(text.stdout).toMatch(/^this month: \$0\.04$/m);
    expect(text.stdout).toMatch(new RegExp(`^@${handle} +2 +\\$0\\.04 +\\$0\\.03/month +\\$0\\.04$`, 'm'));
    expect(text.stdout).toMatch(new RegExp(`^${localDayKey(clock.now())} +\\$0\\.04$`, 'm'));
  });

  it('clears a budget with --clear, and refuses a budget that is not an amount', async () => {
    const cleared = await cli(['budget', handle, '--clear']);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.stdout).toContain(`@${handle} has no monthly budget now`);
    const view = parsed<SpendView>(await cli(['spend', '--json']));
    expect(view.byHandle[0]?.budgetUnits).toBeNull();

    const bad = await cli(['budget', handle, 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'intel-desk: the budget: "lots" is not an amount of dollars; write it like 1.50 or 0.0125.\n',
    );
    const both = await cli(['budget', handle, '5', '--clear']);
    expect(both.code).toBe(2);
  });

  it('keeps a dollar amount to the base unit, and refuses a seventh decimal or a negative one', async () => {
    const exact = await cli(['budget', handle, '0.0125']);
    expect(exact.code, exact.stderr).toBe(0);
    expect(exact.stdout).toContain(`@${handle}: $0.0125 a month`);
    const json = parsed<{ monthlyUnits: string }>(await cli(['budget', handle, '$0.0125', '--json']));
    expect(json.monthlyUnits).toBe('12500');
    expect(parsed<SpendView>(await cli(['spend', '--json'])).byHandle[0]?.budgetUnits).toBe('12500');

    const finer = await cli(['budget', handle, '0.0000001']);
    expect(finer.code).toBe(2);
    expect(finer.stderr).toBe(
      'intel-desk: the budget: USDC has 6 decimals: give at most 6 digits after the point (0.0000001 has 7).\n',
    );
    const negative = await cli(['budget', handle, '--', '-1']);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('An amount cannot be negative.');
    // Neither refusal changed the budget.
    expect(parsed<SpendView>(await cli(['spend', '--json'])).byHandle[0]?.budgetUnits).toBe('12500');
  });

  it('sets the caps to the base unit: a purchase at the cap pays, one a unit over it is refused', async () => {
    expect((await cli(['budget', handle, '--clear'])).code).toBe(0);
    const shown = await cli(['caps']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(
      'per purchase: $5.00\nper day:      $20.00\ngoing over a cap asks for --over-cap\n',
    );

    const finer = await cli(['caps', '--per-purchase', '0.01', '--daily', '0.0000001']);
    expect(finer.code).toBe(2);
    expect(finer.stderr).toBe(
      'intel-desk: --daily: USDC has 6 decimals: give at most 6 digits after the point (0.0000001 has 7).\n',
    );
    // Neither cap changed: the per-purchase one was not saved alone.
    expect(parsed<{ perPurchaseCapUnits: string }>(await cli(['caps', '--json'])).perPurchaseCapUnits).toBe(
      '5000000',
    );

    const exact = await cli(['caps', '--per-purchase', '0.0125']);
    expect(exact.stdout).toContain('per purchase: $0.0125\n');
    expect(parsed<{ perPurchaseCapUnits: string }>(await cli(['caps', '--json']))).toEqual({
      perPurchaseCapUnits: '12500',
      dailyCapUnits: '20000000',
    });

    // A report is $0.01: at a cap of exactly that it pays; one base unit less and it is over.
    expect((await cli(['caps', '--per-purchase', '0.01'])).code).toBe(0);
    const atCap = await buy([ids[4]!]);
    expect(atCap.code, atCap.stderr).toBe(0);
    expect(atCap.stdout).toContain('bought 1 report for $0.01');
    expect((await cli(['caps', '--per-purchase', '0.009999'])).code).toBe(0);
    const over = await buy([ids[5]!]);
    expect(over.code).toBe(3);
    expect(over.stderr).toContain('$0.01 is above your per-purchase cap of $0.009999');
    expect(over.stderr).toContain('[over_purchase_cap]');
  });

  it('refuses a budget for a handle the shelf does not list, naming the handle and how to check', async () => {
    const typo = await cli(['budget', `${handle}_typo`, '5']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      `intel-desk: The service's shelf lists no handle @${handle}_typo, so no budget was set. Check the spelling against \`intel-desk list\`. [budget_unknown_handle]\n`,
    );
    const view = parsed<SpendView>(await cli(['spend', '--json']));
    expect(view.byHandle.map((row) => row.handle)).not.toContain(`${handle}_typo`);
  });
});
