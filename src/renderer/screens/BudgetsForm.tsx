/**
 * Settings: a monthly budget per handle, beside the caps. Over a budget a purchase needs the same extra
 * confirmation as over a cap; a budget counts the local calendar month (docs/decisions/0017).
 */
import { useId, useState } from 'react';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { FormMessage, invalidProps } from '../components/FormMessage';
import { asksForPassphrase, ConsentPassphrase } from '../components/ConsentPassphrase';
import { readLimit, usd } from '../format';

export function BudgetsForm() {
  const spend = useRpcQuery('purchases.spend', {});
  const set = useRpcMutation('budget.set');
  const [handle, setHandle] = useState('');
  const [amount, setAmount] = useState('');
  // A typed amount that is no exact amount of USDC: said here, and nothing is sent.
  const [typo, setTypo] = useState<string | null>(null);
  // Raising or clearing a budget while a keystore is stored needs its passphrase: asked for once core says so.
  const [passphrase, setPassphrase] = useState('');
  const asked = asksForPassphrase(set.error) || passphrase !== '';
  const save = (change: { handle: string; monthlyUnits: string | null }) =>
    set.mutate(
      { ...change, ...(passphrase === '' ? {} : { passphrase }) },
      { onSettled: () => setPassphrase('') },
    );
  const messageId = useId();
  const failed = typo !== null || set.isError;
  const titleId = useId();
  const budgets = spend.data?.byHandle.filter((row) => row.budgetUnits !== null) ?? [];
  const done = set.data
    ? set.data.monthlyUnits === null
      ? `@${set.data.handle} has no budget now.`
      : `@${set.data.handle}: ${usd(set.data.monthlyUnits)} a month.${
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
        const monthly = readLimit(amount);
        if (!monthly.ok) return setTypo(monthly.message);
        setTypo(null);
        save({ handle: handle.trim().replace(/^@/, ''), monthlyUnits: monthly.units.toString() });
      }}
    >
      <h2 id={titleId}>Budgets per handle</h2>
      <p className="muted small">
        What a handle&apos;s reports may cost each calendar month; over it, a purchase needs an extra
        confirmation, as over a cap. Raising or clearing a budget needs the wallet&apos;s passphrase.
      </p>
      {budgets.length > 0 ? (
        <ul className="budget-list" aria-label="Budgets">
          {budgets.map((row) => {
            const budget = BigInt(row.budgetUnits ?? 0);
            const month = BigInt(row.monthUnits);
            return (
              <li key={row.handle}>
                @{row.handle}: {usd(budget)} a month, {usd(month)} spent this month
                {month > budget ? (
                  <strong className="warn-text" data-testid="budget-over">
                    {' '}
                    · over by {usd(month - budget)}
                  </strong>
                ) : null}{' '}
                <button
                  type="button"
                  className="link"
                  aria-label={`Clear the budget of @${row.handle}`}
                  disabled={set.isPending}
                  onClick={() => save({ handle: row.handle, monthlyUnits: null })}
                >
                  Clear
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <label>
        Handle{' '}
        <input
          value={handle}
          autoComplete="off"
          required
          onChange={(e) => setHandle(e.target.value)}
          {...invalidProps(messageId, failed)}
        />
      </label>
      <label>
        Per month (USD){' '}
        <input
          inputMode="decimal"
          autoComplete="off"
          required
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          {...invalidProps(messageId, failed)}
        />
      </label>
      {asked ? (
        <ConsentPassphrase what="raise or clear a budget" value={passphrase} onChange={setPassphrase} />
      ) : null}
      <button type="submit" disabled={set.isPending}>
        Set budget
      </button>
      <FormMessage
        id={messageId}
        error={typo ?? (set.isError ? errorMessage(set.error) : null)}
        success={typo === null ? done : null}
      />
    </form>
  );
}
