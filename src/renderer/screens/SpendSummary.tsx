/**
 * The Purchases screen's spend: today, this month and in all, the budgets of this month, and the charts. It
 * counts as the daily cap does (core's purchases.spend): a purchase in doubt in full until it is settled.
 */
import type { SpendView } from '../../shared/rpc';
import { useRpcQuery } from '../rpc/context';
import { ErrorLine } from '../components/States';
import { usd } from '../format';
import { spendText as t } from '../text/spend';
import { SpendByDayChart, SpendByHandleChart } from './SpendCharts';

function Budgets(props: { view: SpendView }) {
  const budgets = props.view.byHandle.filter((row) => row.budgetUnits !== null);
  if (budgets.length === 0) return null;
  return (
    <table className="menu-table spend-budgets" aria-label={t('budgetsLabel')}>
      <thead>
        <tr>
          <th scope="col">{t('handle')}</th>
          <th scope="col">{t('spentThisMonth')}</th>
          <th scope="col">{t('monthlyBudget')}</th>
        </tr>
      </thead>
      <tbody>
        {budgets.map((row) => {
          const over = BigInt(row.monthUnits) > BigInt(row.budgetUnits ?? 0);
          return (
            <tr key={row.handle}>
              <td>@{row.handle}</td>
              <td className={over ? 'warn-text' : ''}>
                {usd(row.monthUnits)}
                {over ? t('over') : ''}
              </td>
              <td>{usd(row.budgetUnits ?? 0n)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function SpendSummary() {
  const spend = useRpcQuery('purchases.spend', {});
  const view = spend.data;
  if (spend.isError) return <ErrorLine error={spend.error} />;
  if (!view) return null;
  return (
    <section className="spend-summary" aria-label={t('section')}>
      <dl className="spend-totals" data-testid="spend-totals">
        <div>
          <dt>{t('thisMonth')}</dt>
          <dd data-testid="spend-month">{usd(view.monthUnits)}</dd>
        </div>
        <div>
          <dt>{t('inAll')}</dt>
          <dd data-testid="spend-lifetime">{usd(view.lifetimeUnits)}</dd>
        </div>
      </dl>
      {BigInt(view.unsettledUnits) > 0n ? (
        <p className="small warn-text">{t('unsettled', { amount: usd(view.unsettledUnits) })}</p>
      ) : null}
      <Budgets view={view} />
      <div className="spend-charts">
        <SpendByDayChart days={view.byDay} />
        <SpendByHandleChart handles={view.byHandle} />
      </div>
    </section>
  );
}
