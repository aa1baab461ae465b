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
import { purchaseText as t } from '../../text/purchase';

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
          ? t('unresolvedInDoubt', { when: dateTime(createdAt) })
          : t('unresolvedSent', { when: dateTime(createdAt) })}{' '}
        {t('unresolvedNoPay')}
      </p>
      <button type="button" onClick={() => navigate({ screen: 'purchases', purchaseId })}>
        {t('checkInPurchases')}
      </button>
    </div>
  );
}
