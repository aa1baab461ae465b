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
import { budgetsText as t } from '../text/budgets';

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
      ? t('cleared', { handle: set.data.handle })
      : `${t('set', { handle: set.data.handle, amount: usd(set.data.monthlyUnits) })}${
          set.data.unchecked === undefined
            ? ''
            : t('unchecked', { handle: set.data.handle, reason: set.data.unchecked })
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
      <h2 id={titleId}>{t('title')}</h2>
      <p className="muted small">{t('explain')}</p>
      {budgets.length > 0 ? (
        <ul className="budget-list" aria-label={t('listLabel')}>
          {budgets.map((row) => {
            const budget = BigInt(row.budgetUnits ?? 0);
            const month = BigInt(row.monthUnits);
            return (
              <li key={row.handle}>
                {t('row', { handle: row.handle, budget: usd(budget), month: usd(month) })}
                {month > budget ? (
                  <strong className="warn-text" data-testid="budget-over">
                    {t('over', { amount: usd(month - budget) })}
                  </strong>
                ) : null}{' '}
                <button
                  type="button"
                  className="link"
                  aria-label={t('clearLabel', { handle: row.handle })}
                  disabled={set.isPending}
                  onClick={() => save({ handle: row.handle, monthlyUnits: null })}
                >
                  {t('clear')}
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <label>
        {t('handle')}{' '}
        <input
          value={handle}
          autoComplete="off"
          required
          onChange={(e) => setHandle(e.target.value)}
          {...invalidProps(messageId, failed)}
        />
      </label>
      <label>
        {t('perMonth')}{' '}
        <input
          inputMode="decimal"
          autoComplete="off"
          required
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          {...invalidProps(messageId, failed)}
        />
      </label>
      {asked ? <ConsentPassphrase what={t('consent')} value={passphrase} onChange={setPassphrase} /> : null}
      <button type="submit" disabled={set.isPending}>
        {t('submit')}
      </button>
      <FormMessage
        id={messageId}
        error={typo ?? (set.isError ? errorMessage(set.error) : null)}
        success={typo === null ? done : null}
      />
    </form>
  );
}
