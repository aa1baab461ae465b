/** The quote as lines: reports and unit price, owned ones left out or bought again, total, payee, network. */
import type { QuoteView } from '../../../shared/rpc';
import { networkName, plural, pluralWord, units, usd } from '../../format';
import { Address, sameAddress } from '../../components/Address';
import { PAYEE_LABEL } from './labels';

/** The reports of the choice already owned: left out (and what they would cost), or bought again. */
function ownedText(quote: QuoteView): string | null {
  const n = quote.ownedCount;
  if (n === 0) return null;
  return quote.includesOwned
    ? `Includes ${plural(n, 'report')} you already own, bought again for ${usd(quote.ownedCostUnits)}.`
    : `You already own ${plural(n, 'report')} of this choice; ${pluralWord(n, 'it is', 'they are')} left out (buying ${pluralWord(n, 'it', 'them')} again would cost ${usd(quote.ownedCostUnits)}).`;
}

export function PriceLines(props: { quote: QuoteView }) {
  const { quote } = props;
  const owned = ownedText(quote);
  // The pin is shown beside the offer only when they are really different accounts, not another spelling.
  const pinnedDiffers = quote.pinnedPayTo !== null && !sameAddress(quote.pinnedPayTo, quote.payTo);
  return (
    <dl className="kv price">
      <div>
        <dt>Reports</dt>
        <dd>
          {quote.reportCount} × {usd(quote.unitPriceUnits)}
        </dd>
      </div>
      {owned ? (
        <div>
          <dt>Owned</dt>
          <dd className={quote.includesOwned ? 'warn-text' : ''} data-testid="owned-note">
            {owned}
          </dd>
        </div>
      ) : null}
      <div>
        <dt>Total</dt>
        <dd data-testid="price">
          <strong>{usd(quote.amount)}</strong> ({units(quote.amount, quote.tokenDecimals)} USDC)
        </dd>
      </div>
      <div>
        <dt>Payee</dt>
        <dd className={quote.payToStatus === 'changed' ? 'error-text' : ''}>
          <Address address={quote.payTo} label="payee" testId="payee" />
          <br />
          <span className="small">{PAYEE_LABEL[quote.payToStatus]}</span>
          {quote.payToStatus === 'changed' && quote.pinnedPayTo && pinnedDiffers ? (
            <span className="small">
              {' '}
              (was <Address address={quote.pinnedPayTo} label="payee you paid before" testId="pinned-payee" />
              )
            </span>
          ) : null}
        </dd>
      </div>
      <div>
        <dt>Network</dt>
        <dd>{networkName(quote.network)}</dd>
      </div>
    </dl>
  );
}
