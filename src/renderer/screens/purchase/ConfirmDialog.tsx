/**
 * The confirmation: the exact amount, the price lines, and a tick for each thing the person must accept.
 * Going over a cap with the keystore also needs its passphrase (decision 0022).
 */
import { useState } from 'react';
import type { QuoteView } from '../../../shared/rpc';
import { useRpcQuery } from '../../rpc/context';
import { ConsentPassphrase } from '../../components/ConsentPassphrase';
import { plural, tokenAmount, usd } from '../../format';
import { Dialog } from '../../components/Dialog';
import { PriceLines } from './PriceLines';
import { quoteFactsSentence, quoteOptionSentence } from '../../../shared/quote-facts';
import { purchaseText as t } from '../../text/purchase';

/** What the person accepted in the confirmation, with the passphrase when going over a cap needs it. */
export interface Accepted {
  payee: boolean;
  cap: boolean;
  passphrase?: string;
}

export function ConfirmDialog(props: {
  quote: QuoteView | undefined;
  open: boolean;
  onClose: () => void;
  onConfirm: (accepted: Accepted) => void;
}) {
  const q = props.quote;
  const wallet = useRpcQuery('wallet.status', {});
  const [passphrase, setPassphrase] = useState('');
  const [payee, setPayee] = useState(false);
  const [cap, setCap] = useState(false);
  const [rebuy, setRebuy] = useState(false);
  // Each confirmation starts unticked: what was accepted once is not carried to the next one.
  const untick = () => {
    setPayee(false);
    setCap(false);
    setRebuy(false);
    setPassphrase('');
  };
  const close = () => {
    untick();
    props.onClose();
  };
  const needsPayee = q?.payToStatus === 'changed';
  const needsCap = Boolean(q?.overPurchaseCap || q?.overDailyCap || q?.overHandleBudget);
  const needsRebuy = Boolean(q?.includesOwned);
  // An external wallet shows the amount and asks the person itself; the keystore signs once unlocked.
  const needsPassphrase = needsCap && cap && wallet.data?.kind === 'keystore';
  return (
    <Dialog title={t('confirmTitle')} open={props.open && q !== undefined} onClose={close}>
      {q ? (
        <form
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
            untick();
            props.onConfirm({ payee, cap, ...(needsPassphrase ? { passphrase } : {}) });
          }}
        >
          <p className="confirm-amount" data-testid="confirm-amount">
            {t('confirmBefore')}
            <strong>{usd(q.amount)}</strong>
            {t('confirmAfter', {
              tokens: tokenAmount(q.amount, q.tokenDecimals),
              reports: plural(q.reportCount, t('report'), t('reports')),
              handle: q.handle,
            })}
          </p>
          <PriceLines quote={q} />
          {[quoteOptionSentence(q), quoteFactsSentence(q)].map((line) =>
            line ? (
              <p key={line} className="muted" data-testid="confirm-facts">
                {line}
              </p>
            ) : null,
          )}
          {needsRebuy ? (
            <label className="warn-text">
              <input type="checkbox" checked={rebuy} onChange={(e) => setRebuy(e.target.checked)} />{' '}
              {t('rebuy', { reports: plural(q.ownedCount, t('report'), t('reports')) })}
            </label>
          ) : null}
          {needsPayee ? (
            <label className="warn-text">
              <input type="checkbox" checked={payee} onChange={(e) => setPayee(e.target.checked)} />{' '}
              {t('acceptPayeeTick')}
            </label>
          ) : null}
          {needsCap ? (
            <label className="warn-text">
              <input type="checkbox" checked={cap} onChange={(e) => setCap(e.target.checked)} />{' '}
              {t('acceptCapTick')}
            </label>
          ) : null}
          {needsPassphrase ? (
            <ConsentPassphrase what={t('capConsent')} value={passphrase} onChange={setPassphrase} />
          ) : null}
          <div className="dialog-actions">
            <button type="button" onClick={close} data-autofocus>
              {t('cancel')}
            </button>
            <button
              type="submit"
              className="primary"
              disabled={
                (needsPayee && !payee) ||
                (needsCap && !cap) ||
                (needsRebuy && !rebuy) ||
                (needsPassphrase && passphrase === '')
              }
            >
              {t('pay', { amount: usd(q.amount) })}
            </button>
          </div>
        </form>
      ) : null}
    </Dialog>
  );
}
