/** The quote as lines: reports and unit price, owned ones left out or bought again, total, payee, network. */
import type { QuoteView } from '../../../shared/rpc';
import { networkName, plural, tokenAmount, usd } from '../../format';
import { purchaseText as t } from '../../text/purchase';
import { Address, sameAddress } from '../../components/Address';
import { PAYEE_LABEL } from './labels';

/** The reports of the choice already owned: left out (and what they would cost), or bought again. */
function ownedText(quote: QuoteView): string | null {
  const n = quote.ownedCount;
  if (n === 0) return null;
  const values = { reports: plural(n, t('report'), t('reports')), amount: usd(quote.ownedCostUnits) };
  if (quote.includesOwned) return t('includesOwned', values);
  return t(n === 1 ? 'ownedLeftOutOne' : 'ownedLeftOutMany', values);
}

export function PriceLines(props: { quote: QuoteView }) {
  const { quote } = props;
  const owned = ownedText(quote);
  // The pin is shown beside the offer only when they are really different accounts, not another spelling.
  const pinnedDiffers = quote.pinnedPayTo !== null && !sameAddress(quote.pinnedPayTo, quote.payTo);
  return (
    <dl className="kv price">
      <div>
        <dt>{t('reportsLabel')}</dt>
        <dd>
          {quote.reportCount} × {usd(quote.unitPriceUnits)}
        </dd>
      </div>
      {owned ? (
        <div>
          <dt>{t('ownedLabel')}</dt>
          <dd className={quote.includesOwned ? 'warn-text' : ''} data-testid="owned-note">
            {owned}
          </dd>
        </div>
      ) : null}
      <div>
        <dt>{t('totalLabel')}</dt>
        <dd data-testid="price">
          <strong>{usd(quote.amount)}</strong>
          {t('totalTokens', { tokens: tokenAmount(quote.amount, quote.tokenDecimals) })}
        </dd>
      </div>
      <div>
        <dt>{t('payeeLabel')}</dt>
        <dd className={quote.payToStatus === 'changed' ? 'error-text' : ''}>
          <Address address={quote.payTo} label={t('payee')} testId="payee" />
          <br />
          <span className="small">{PAYEE_LABEL[quote.payToStatus]}</span>
          {quote.payToStatus === 'changed' && quote.pinnedPayTo && pinnedDiffers ? (
            <span className="small">
              {' '}
              ({t('was')}{' '}
              <Address address={quote.pinnedPayTo} label={t('payeeBefore')} testId="pinned-payee" />)
            </span>
          ) : null}
        </dd>
      </div>
      <div>
        <dt>{t('networkLabel')}</dt>
        <dd>{networkName(quote.network)}</dd>
      </div>
    </dl>
  );
}
