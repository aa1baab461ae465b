/**
 * Where the purchase is: every step core reported, in order, kept after the end (a purchase of half a
 * second still shows each), and one status region that stays in the page, so screen readers announce its
 * changes rather than its arrival.
 */
import type { PurchaseStep } from '../../../shared/events';
import { STEP_ANNOUNCEMENT, STEP_LABEL } from './labels';

export function PurchaseProgress(props: {
  steps: PurchaseStep[];
  busy: boolean;
  /** What the region says once the purchase is over (the outcome in one sentence), or ''. */
  result: string;
  /** Nothing is signed when reading with the library secret, so there are no payment steps to say. */
  withSecret: boolean;
}) {
  const { steps, busy } = props;
  const latest = steps.at(-1);
  const working = props.withSecret ? 'Reading with the library secret…' : 'Signing the payment…';
  const announcement = busy ? (latest ? STEP_ANNOUNCEMENT[latest] : working) : props.result;
  return (
    <>
      <p role="status" className={busy ? 'progress' : 'sr-only'} data-testid="purchase-progress">
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {announcement}
      </p>
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
