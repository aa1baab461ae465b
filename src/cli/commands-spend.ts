/** spend, budget: what was spent (totals, by handle, by day) and a handle's monthly budget. */
import { formatUnitsUsd } from '../shared/money';
import { rpcInputs } from '../shared/rpc';
import type { DeskCore } from '../core';
import { table, UsageError, type Output } from './output';
import { usdArgument } from './usd-argument';
import { withConsent } from './consent';
import type { SignerFlags } from './commands-wallet';

/** Like the Purchases screen: in-doubt purchases count in full, as for the daily cap. */
export async function spend(desk: DeskCore, out: Output, days: string | undefined): Promise<void> {
  const count = days === undefined ? undefined : Number(days);
  // The contract's own rule decides; the CLI only says it in terms of its flag.
  if (count !== undefined && !rpcInputs['purchases.spend'].shape.days.safeParse(count).success)
    throw new UsageError('--days is a whole number of days from 1 to 366');
  const view = await desk.handlers['purchases.spend']({ ...(count !== undefined ? { days: count } : {}) });
  out.result(view, () =>
    [
      `today:      ${formatUnitsUsd(view.todayUnits)} of your ${formatUnitsUsd(view.dailyCapUnits)} daily cap`,
      `this month: ${formatUnitsUsd(view.monthUnits)}`,
      `in all:     ${formatUnitsUsd(view.lifetimeUnits)}`,
      BigInt(view.unsettledUnits) > 0n
        ? `(${formatUnitsUsd(view.unsettledUnits)} of it is not settled yet and counts in full until it is)`
        : '',
      '',
      table(
        view.byHandle.map((row) => ({
          handle: `@${row.handle}`,
          purchases: row.purchases,
          'this month': formatUnitsUsd(row.monthUnits),
          budget: row.budgetUnits === null ? '' : `${formatUnitsUsd(row.budgetUnits)}/month`,
          'in all': formatUnitsUsd(row.totalUnits),
        })),
        ['handle', 'purchases', 'this month', 'budget', 'in all'],
      ),
      '',
      table(
        view.byDay
          .filter((row) => BigInt(row.units) > 0n)
          .map((row) => ({ day: row.day, spent: formatUnitsUsd(row.units) })),
        ['day', 'spent'],
      ),
    ]
      .filter((line, i, all) => line !== '' || all[i - 1] !== '')
      .join('\n'),
  );
}

/** `caps` shows the per-purchase and daily caps; `--per-purchase USD` and `--daily USD` set them. */
export async function caps(
  desk: DeskCore,
  out: Output,
  typed: { perPurchase: string | undefined; daily: string | undefined },
  flags: SignerFlags,
): Promise<void> {
  // Both are read before either is saved: one amount that is no amount changes nothing.
  const perPurchaseCapUnits =
    typed.perPurchase === undefined ? undefined : usdArgument(typed.perPurchase, '--per-purchase').toString();
  const dailyCapUnits =
    typed.daily === undefined ? undefined : usdArgument(typed.daily, '--daily').toString();
  const settings =
    perPurchaseCapUnits === undefined && dailyCapUnits === undefined
      ? await desk.handlers['settings.get']({})
      : await withConsent(flags, 'raise a cap', 'environment-or-terminal', (passphrase) =>
          desk.handlers['settings.update']({
            ...(perPurchaseCapUnits === undefined ? {} : { perPurchaseCapUnits }),
            ...(dailyCapUnits === undefined ? {} : { dailyCapUnits }),
            ...(passphrase === undefined ? {} : { passphrase }),
          }),
        );
  const view = { perPurchaseCapUnits: settings.perPurchaseCapUnits, dailyCapUnits: settings.dailyCapUnits };
  out.result(view, () =>
    [
      `per purchase: ${formatUnitsUsd(view.perPurchaseCapUnits)}`,
      `per day:      ${formatUnitsUsd(view.dailyCapUnits)}`,
      'going over a cap asks for --over-cap',
    ].join('\n'),
  );
}

/** `budget <handle> <usd>` sets the monthly budget; `budget <handle> --clear` removes it. */
/** The budgets set, each with what its handle has spent this month. */
export async function budgets(desk: DeskCore, out: Output): Promise<void> {
  const view = await desk.handlers['purchases.spend']({});
  const set = view.byHandle.filter((row) => row.budgetUnits !== null);
  out.result(set, () =>
    set.length === 0
      ? 'no monthly budgets are set; `intel-desk budget <handle> <usd>` sets one'
      : table(
          set.map((row) => ({
            handle: `@${row.handle}`,
            budget: `${formatUnitsUsd(row.budgetUnits ?? '0')}/month`,
            'this month': formatUnitsUsd(row.monthUnits),
          })),
          ['handle', 'budget', 'this month'],
        ),
  );
}

export async function budget(
  desk: DeskCore,
  out: Output,
  handle: string,
  amount: string | undefined,
  clear: boolean,
  flags: SignerFlags,
): Promise<void> {
  if (clear === (amount !== undefined))
    throw new UsageError('give either a monthly amount in USD (budget <handle> 25) or --clear');
  const monthlyUnits = amount === undefined ? null : usdArgument(amount, 'the budget').toString();
  const what = monthlyUnits === null ? "clear a handle's budget" : "raise a handle's budget";
  const set = await withConsent(flags, what, 'environment-or-terminal', (passphrase) =>
    desk.handlers['budget.set']({
      handle,
      monthlyUnits,
      ...(passphrase === undefined ? {} : { passphrase }),
    }),
  );
  out.result(set, () =>
    set.monthlyUnits === null
      ? `@${set.handle} has no monthly budget now`
      : [
          `@${set.handle}: ${formatUnitsUsd(set.monthlyUnits)} a month; going over it asks for --over-cap, like the caps`,
          set.unchecked === undefined
            ? ''
            : `(kept without checking that the service lists @${set.handle}: ${set.unchecked})`,
        ]
          .filter(Boolean)
          .join('\n'),
  );
}
