/**
 * Says, before anyone clicks Buy, that an earlier purchase of these reports may still settle: core would
 * refuse to pay for them again, so the panel points to where it gets resolved instead.
 */
import type { QuoteView } from '../../../shared/rpc';
import { useNavigate } from '../../app/route';
import { dateTime } from '../../format';

export function UnresolvedNote(props: { unresolved: NonNullable<QuoteView['unresolved']> }) {
  const navigate = useNavigate();
  const { purchaseId, state, createdAt } = props.unresolved;
  return (
    <div className="notice" data-testid="unresolved-purchase">
      <p>
        {state === 'in_doubt'
          ? `Your purchase of these reports on ${dateTime(createdAt)} is in doubt: its payment may still settle.`
          : `Your purchase of these reports on ${dateTime(createdAt)} is still on its way to the service.`}{' '}
        Intel Desk will not pay for them again until it is resolved.
      </p>
      <button type="button" onClick={() => navigate({ screen: 'purchases', purchaseId })}>
        Check it in Purchases
      </button>
    </div>
  );
}
