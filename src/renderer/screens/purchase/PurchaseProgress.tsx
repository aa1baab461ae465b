/**
 * Where the purchase is: every step core reported, in order, kept after the end (a purchase of half a
 * second still shows each), and one status region that stays in the page, so screen readers announce its
 * changes rather than its arrival.
 */
import type { PurchaseStep } from '../../../shared/events';
import { STEP_ANNOUNCEMENT, STEP_LABEL } from './labels';
import { purchaseText as t } from '../../text/purchase';

export function PurchaseProgress(props: {
  steps: PurchaseStep[];
  busy: boolean;
  /** What the region says once the purchase is over (the outcome in one sentence), or ''. */
  result: string;
  /** Nothing is signed when reading with the library secret, so there are no payment steps to say. */
  withSecret: boolean;
  /** While a connected wallet is asked to sign: stop waiting for it (nothing is paid). */
  onCancel?: (() => void) | undefined;
}) {
  const { steps, busy } = props;
  const latest = steps.at(-1);
  const working = props.withSecret
    ? t('readingWithSecret')
    : props.onCancel
      ? t('waitingForWallet')
      : t('saySigning');
  // Waiting on a wallet outranks the step's words: "Signing the payment…" would hide who is to act.
  const waiting = busy && props.onCancel ? working : null;
  const announcement = busy ? (waiting ?? (latest ? STEP_ANNOUNCEMENT[latest] : working)) : props.result;
  return (
    <>
      <p role="status" className={busy ? 'progress' : 'sr-only'} data-testid="purchase-progress">
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {announcement}
      </p>
      {busy && props.onCancel ? (
        <p className="cancel-signing">
          <button type="button" onClick={props.onCancel} data-testid="cancel-signing">
            {t('cancel')}
          </button>{' '}
          <span className="muted small">{t('stopWaiting')}</span>
        </p>
      ) : null}
      {steps.length > 0 ? (
        <ol className="steps" data-testid="purchase-steps">
          {steps.map((step, index) => {
            const current = busy && index === steps.length - 1;
            const bad = step === 'failed' || step === 'in_doubt';
            return (
              <li key={step} className={current ? 'current' : bad ? 'bad' : 'done'}>
                <span aria-hidden="true">{current ? '…' : bad ? '!' : '✓'}</span> {STEP_LABEL[step]}
              </li>
            );
          })}
        </ol>
      ) : null}
    </>
  );
}
