/** spend, budget: what was spent (totals, by handle, by day) and a handle's monthly budget. */
import { formatUsd } from '../shared/money';
import { rpcInputs } from '../shared/rpc';
import type { DeskCore } from '../core';
import { table, UsageError, type Output } from './output';

/** Like the Purchases screen: in-doubt purchases count in full, as for the daily cap. */
export async function spend(desk: DeskCore, out: Output, days: string | undefined): Promise<void> {
  const count = days === undefined ? undefined : Number(days);
  // The contract's own rule decides; the CLI only says it in terms of its flag.
  if (count !== undefined && !rpcInputs['purchases.spend'].shape.days.safeParse(count).success)
    throw new UsageError('--days is a whole number of days from 1 to 366');
  const view = await desk.handlers['purchases.spend']({ ...(count !== undefined ? { days: count } : {}) });
  out.result(view, () =>
    [
      `today:      ${formatUsd(view.todayUsd)} of your ${formatUsd(view.dailyCapUsd)} daily cap`,
      `this month: ${formatUsd(view.monthUsd)}`,
      `in all:     ${formatUsd(view.lifetimeUsd)}`,
      view.unsettledUsd > 0
        ? `(${formatUsd(view.unsettledUsd)} of it is not settled yet and counts in full until it is)`
        : '',
      '',
      table(
        view.byHandle.map((row) => ({
          handle: `@${row.handle}`,
          purchases: row.purchases,
          'this month': formatUsd(row.monthUsd),
          budget: row.budgetUsd === null ? '' : `${formatUsd(row.budgetUsd)}/month`,
          'in all': formatUsd(row.totalUsd),
        })),
        ['handle', 'purchases', 'this month', 'budget', 'in all'],
      ),
      '',
      table(
        view.byDay.filter((row) => row.usd > 0).map((row) => ({ day: row.day, spent: formatUsd(row.usd) })),
        ['day', 'spent'],
      ),
    ]
      .filter((line, i, all) => line !== '' || all[i - 1] !== '')
      .join('\n'),
  );
}

/** `budget <handle> <usd>` sets the monthly budget; `budget <handle> --clear` removes it. */
export async function budget(
  desk: DeskCore,
  out: Output,
  handle: string,
  amount: string | undefined,
  clear: boolean,
): Promise<void> {
  if (clear === (amount !== undefined))
    throw new UsageError('give either a monthly amount in USD (budget <handle> 25) or --clear');
  let monthlyUsd: number | null = null;
  if (amount !== undefined) {
    monthlyUsd = Number(amount.replace(/^\$/, ''));
    if (amount.trim() === '' || !rpcInputs['budget.set'].shape.monthlyUsd.safeParse(monthlyUsd).success)
      throw new UsageError(`the budget is an amount in USD from 0 to 1000000, not "${amount.slice(0, 40)}"`);
  }
  const set = await desk.handlers['budget.set']({ handle, monthlyUsd });
  out.result(set, () =>
    set.monthlyUsd === null
      ? `@${set.handle} has no monthly budget now`
      : [
          `@${set.handle}: ${formatUsd(set.monthlyUsd)} a month; going over it asks for --over-cap, like the caps`,
          set.unchecked === undefined
            ? ''
            : `(kept without checking that the service lists @${set.handle}: ${set.unchecked})`,
        ]
          .filter(Boolean)
          .join('\n'),
  );
}
