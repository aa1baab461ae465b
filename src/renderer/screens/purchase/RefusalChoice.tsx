/**
 * Core refused because something changed since the confirmation: a new price (a fresh quote) or a new
 * payee (against the one pinned by an earlier purchase). Shows what changed and offers the one click that
 * accepts it, instead of starting the choice again.
 */
import { tokenAmount, usd } from '../../format';
import { Address } from '../../components/Address';
import { purchaseText as t } from '../../text/purchase';
import type { Refusal } from './usePurchase';

export function RefusalChoice(props: {
  refusal: Refusal;
  /** The amount that was confirmed, in base units, and the token's decimals. */
  confirmed: string;
  tokenDecimals: number;
  busy: boolean;
  onAccept: () => void;
}) {
  const { refusal } = props;
  const confirmed = tokenAmount(props.confirmed, props.tokenDecimals);
  if (refusal.code === 'quote_changed') {
    const amount = tokenAmount(refusal.details.amount, props.tokenDecimals);
    return (
      <div className="outcome warn" data-testid="purchase-refusal">
        <p>{refusal.message}</p>
        <p>
          {t('newPriceBefore', { confirmed })}
          <strong>{t('newPriceAmount', { amount })}</strong>
          {t('newPriceAfter', { usd: usd(refusal.details.amount) })}
        </p>
        <button type="button" className="primary" disabled={props.busy} onClick={props.onAccept}>
          {t('payNewPrice', { amount })}
        </button>
      </div>
    );
  }
  return (
    <div className="outcome warn" data-testid="purchase-refusal">
      <p>{refusal.message}</p>
      <dl className="kv">
        <div>
          <dt>{t('paidBefore')}</dt>
          <dd>
            <Address address={refusal.details.pinned} label={t('payeeBefore')} />
          </dd>
        </div>
        <div>
          <dt>{t('asksNow')}</dt>
          <dd className="error-text">
            <Address address={refusal.details.payTo} label={t('newPayee')} />
          </dd>
        </div>
      </dl>
      <button type="button" className="primary" disabled={props.busy} onClick={props.onAccept}>
        {t('acceptPayee', { amount: confirmed })}
      </button>
    </div>
  );
}
