/**
 * Ctrl-C during `buy`: before the process goes, it says whether the payment may have left, that it will not
 * be paid again, and where to follow it. Without this a signal ended the run silently, mid-payment.
 */
import type { DeskEvent, PurchaseStep } from '../shared/events';

let latest: { purchaseId: string; step: PurchaseStep } | null = null;

/** Core's onEvent for a CLI run: keeps the step the run's purchase has reached. */
export function followPurchaseSteps(event: DeskEvent): void {
  if (event.type === 'purchase.step') latest = { purchaseId: event.purchaseId, step: event.step };
}

/**
 * The ledger is written and the paid request leaves in one synchronous stretch ('ledger_written', 'sent'),
 * so a signal before 'ledger_written' finds nothing sent, and one after it a payment that may have left.
 */
const MAY_HAVE_LEFT: ReadonlySet<PurchaseStep> = new Set([
  'ledger_written',
  'sent',
  'response_received',
  'stored',
]);

export function interruptedText(seen: { purchaseId: string; step: PurchaseStep } | null): string {
  if (seen === null || !MAY_HAVE_LEFT.has(seen.step)) {
    if (seen?.step === 'completed')
      return `Interrupted after purchase ${seen.purchaseId} completed; \`intel-desk purchases\` shows it.`;
    if (seen?.step === 'failed' || seen?.step === 'in_doubt')
      return `Interrupted after purchase ${seen.purchaseId} ended ${seen.step === 'failed' ? 'failed' : 'in doubt'}; nothing more was paid. \`intel-desk purchases\` shows it.`;
    return 'Interrupted before anything was sent: nothing was paid.';
  }
  return [
    `Interrupted while the payment was on its way: purchase ${seen.purchaseId} is in doubt (the payment may have left).`,
    'It will not be paid again; `intel-desk purchases` checks it on chain and shows how it ends.',
  ].join(' ');
}

/** Until the returned function is called, SIGINT and SIGTERM end the run saying what the purchase is left as. */
export function sayWhatAnInterruptLeaves(write: (text: string) => void): () => void {
  latest = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    write(`intel-desk: ${interruptedText(latest)}\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
