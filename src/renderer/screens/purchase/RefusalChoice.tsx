/**
 * Core refused because something changed since the confirmation: a new price (a fresh quote) or a new
 * payee (against the one pinned by an earlier purchase). Shows what changed and offers the one click that
 * accepts it, instead of starting the choice again.
 */
import { tokenAmount, usd } from '../../format';
import { Address } from '../../components/Address';
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
          You confirmed {confirmed} USDC; the service now asks <strong>{amount} USDC</strong> (
          {usd(refusal.details.amount)}).
        </p>
        <button type="button" className="primary" disabled={props.busy} onClick={props.onAccept}>
          Pay the new price: {amount} USDC
        </button>
      </div>
    );
  }
  return (
    <div className="outcome warn" data-testid="purchase-refusal">
      <p>{refusal.message}</p>
      <dl className="kv">
        <div>
          <dt>Paid before</dt>
          <dd>
            <Address address={refusal.details.pinned} label="payee you paid before" />
          </dd>
        </div>
        <div>
          <dt>Asks now</dt>
          <dd className="error-text">
            <Address address={refusal.details.payTo} label="new payee" />
          </dd>
        </div>
      </dl>
      <button type="button" className="primary" disabled={props.busy} onClick={props.onAccept}>
        Accept the new payee and pay {confirmed} USDC
      </button>
    </div>
  );
}
