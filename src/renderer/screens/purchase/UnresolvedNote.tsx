/**
 * Says, before anyone clicks Buy, that an earlier purchase of these reports may still settle: core would
 * refuse to pay for them again, so the panel points to where it gets resolved instead. Not during an
 * ordinary send (unresolved.ts).
 */
import { useEffect, useState } from 'react';
import type { QuoteView } from '../../../shared/rpc';
import { unresolvedNote } from './unresolved';
import { useNavigate } from '../../hooks/route';
import { dateTime } from '../../format';

export function UnresolvedNote(props: {
  unresolved: NonNullable<QuoteView['unresolved']>;
  /** This panel's own purchase is under way (its progress shows it). */
  sending: boolean;
}) {
  const navigate = useNavigate();
  const { purchaseId, state, createdAt } = props.unresolved;
  // Mounted per purchase (keyed by its id): when it was first seen, and the time now, read again once the
  // purchase has waited long enough to be worth a word.
  const [seenSince] = useState(() => Date.now());
  const [now, setNow] = useState(seenSince);
  const { show, recheckInMs } = unresolvedNote(props.unresolved, props.sending, now, seenSince);
  useEffect(() => {
    if (recheckInMs === null) return;
    const timer = setTimeout(() => setNow(Date.now()), recheckInMs);
    return () => clearTimeout(timer);
  }, [recheckInMs]);
  if (!show) return null;
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
