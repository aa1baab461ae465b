/** Over a handle's monthly budget: the figures that make it so, spent, budget and this price. */
import type { QuoteView } from '../../../shared/rpc';
import { handleKey } from '../../../shared/handle-key';
import { useRpcQuery } from '../../rpc/context';
import { usd } from '../../format';
import { purchaseText as t } from '../../text/purchase';

export function BudgetNote(props: { quote: QuoteView }) {
  const spend = useRpcQuery('purchases.spend', {});
  const handle = handleKey(props.quote.handle);
  const row = spend.data?.byHandle.find((h) => handleKey(h.handle) === handle && h.budgetUnits !== null);
  return (
    <p className="warn-text" data-testid="over-budget">
      {t('overBudget', { handle: props.quote.handle })}
      {row
        ? t('overBudgetFigures', {
            month: usd(row.monthUnits),
            budget: usd(row.budgetUnits ?? 0n),
            amount: usd(props.quote.amount),
          })
        : t('overBudgetEnd')}
    </p>
  );
}
