/** The result of the last purchase of this choice: what was bought and a way to read it, or why not. */
import type { PurchaseOutcome } from '../../../shared/rpc';
import { headline } from './labels';
import { purchaseText as t } from '../../text/purchase';

// No live-region roles here: the panel's one status region announces the outcome (see PurchaseProgress).
export function Outcome(props: {
  outcome: PurchaseOutcome;
  onRead: (id: string) => void;
  onReceipt: (purchaseId: string) => void;
}) {
  const { outcome } = props;
  switch (outcome.status) {
    case 'completed': {
      const newest = outcome.purchase.reportIds[0];
      return (
        <div className="outcome ok" data-testid="purchase-outcome">
          <p>{headline(outcome)}</p>
          <div className="outcome-actions">
            {newest ? (
              <button type="button" onClick={() => props.onRead(newest)}>
                {t('readNow')}
              </button>
            ) : null}
            <button type="button" onClick={() => props.onReceipt(outcome.purchase.id)}>
              {t('viewReceipt')}
            </button>
          </div>
        </div>
      );
    }
    case 'in_doubt':
      return (
        <div className="outcome warn" data-testid="purchase-outcome">
          <p>{outcome.message}</p>
          <p>{t('inDoubtNoPay')}</p>
        </div>
      );
    case 'failed':
      return (
        <div className="outcome error" data-testid="purchase-outcome">
          <p>{outcome.message}</p>
        </div>
      );
    case 'needs_signature':
      return null;
  }
}
