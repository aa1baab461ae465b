/**
 * The Purchases screen's spend: today, this month and in all, the budgets of this month, and the charts. It
 * counts as the daily cap does (core's purchases.spend): a purchase in doubt in full until it is settled.
 */
import type { SpendView } from '../../shared/rpc';
import { useRpcQuery } from '../rpc/context';
import { ErrorLine } from '../components/States';
import { usd } from '../format';
import { SpendByDayChart, SpendByHandleChart } from './SpendCharts';

function Budgets(props: { view: SpendView }) {
  const budgets = props.view.byHandle.filter((row) => row.budgetUsd !== null);
  if (budgets.length === 0) return null;
  return (
    <table className="menu-table spend-budgets" aria-label="Handle budgets this month">
      <thead>
        <tr>
          <th scope="col">Handle</th>
          <th scope="col">Spent this month</th>
          <th scope="col">Monthly budget</th>
        </tr>
      </thead>
      <tbody>
        {budgets.map((row) => {
          const over = row.monthUsd > (row.budgetUsd ?? 0);
          return (
            <tr key={row.handle}>
              <td>@{row.handle}</td>
              <td className={over ? 'warn-text' : ''}>
                {usd(row.monthUsd)}
                {over ? ' (over)' : ''}
              </td>
              <td>{usd(row.budgetUsd ?? 0)}</td>
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
    <section className="spend-summary" aria-label="Spend">
      <dl className="spend-totals" data-testid="spend-totals">
        <div>
          <dt>This month</dt>
          <dd data-testid="spend-month">{usd(view.monthUsd)}</dd>
        </div>
        <div>
          <dt>In all</dt>
          <dd data-testid="spend-lifetime">{usd(view.lifetimeUsd)}</dd>
        </div>
      </dl>
      {view.unsettledUsd > 0 ? (
        <p className="small warn-text">
          {usd(view.unsettledUsd)} of this is not settled yet and counts in full until it is.
        </p>
      ) : null}
      <Budgets view={view} />
      <div className="spend-charts">
        <SpendByDayChart days={view.byDay} />
        <SpendByHandleChart handles={view.byHandle} />
      </div>
    </section>
  );
}
