/**
 * Settings: a monthly budget per handle, beside the caps. Over a budget a purchase needs the same extra
 * confirmation as over a cap; a budget counts the local calendar month (docs/decisions/0017).
 */
import { useId, useState } from 'react';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { FormMessage, invalidProps } from '../components/FormMessage';
import { usd } from '../format';

export function BudgetsForm() {
  const spend = useRpcQuery('purchases.spend', {});
  const set = useRpcMutation('budget.set');
  const [handle, setHandle] = useState('');
  const [amount, setAmount] = useState('');
  const messageId = useId();
  const titleId = useId();
  const budgets = spend.data?.byHandle.filter((row) => row.budgetUsd !== null) ?? [];
  const done = set.data
    ? set.data.monthlyUsd === null
      ? `@${set.data.handle} has no budget now.`
      : `@${set.data.handle}: ${usd(set.data.monthlyUsd)} a month.${
          set.data.unchecked === undefined
            ? ''
            : ` Kept without checking that the service lists @${set.data.handle} (${set.data.unchecked}).`
        }`
    : null;
  return (
    <form
      className="settings-block"
      aria-labelledby={titleId}
      onSubmit={(e) => {
        e.preventDefault();
        set.mutate({ handle: handle.trim().replace(/^@/, ''), monthlyUsd: Number(amount) });
      }}
    >
      <h2 id={titleId}>Budgets per handle</h2>
      <p className="muted small">
        What a handle&apos;s reports may cost each calendar month; over it, a purchase needs an extra
        confirmation, as over a cap.
      </p>
      {budgets.length > 0 ? (
        <ul className="budget-list" aria-label="Budgets">
          {budgets.map((row) => (
            <li key={row.handle}>
              @{row.handle}: {usd(row.budgetUsd ?? 0)} a month, {usd(row.monthUsd)} spent this month
              {row.monthUsd > (row.budgetUsd ?? 0) ? (
                <strong className="warn-text" data-testid="budget-over">
                  {' '}
                  · over by {usd(row.monthUsd - (row.budgetUsd ?? 0))}
                </strong>
              ) : null}{' '}
              <button
                type="button"
                className="link"
                aria-label={`Clear the budget of @${row.handle}`}
                disabled={set.isPending}
                onClick={() => set.mutate({ handle: row.handle, monthlyUsd: null })}
              >
                Clear
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label>
        Handle{' '}
        <input
          value={handle}
          autoComplete="off"
          required
          onChange={(e) => setHandle(e.target.value)}
          {...invalidProps(messageId, set.isError)}
        />
      </label>
      <label>
        Per month (USD){' '}
        <input
          type="number"
          min="0"
          step="0.01"
          required
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          {...invalidProps(messageId, set.isError)}
        />
      </label>
      <button type="submit" disabled={set.isPending}>
        Set budget
      </button>
      <FormMessage id={messageId} error={set.isError ? errorMessage(set.error) : null} success={done} />
    </form>
  );
}
