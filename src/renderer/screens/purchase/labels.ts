/**
 * The words for each state of a quote and a purchase, keyed by the state's type: a new state fails to
 * compile until it has its words here.
 */
import type { PurchaseOutcome, QuoteView } from '../../../shared/rpc';
import type { PurchaseStep } from '../../../shared/events';
import { plural, usd } from '../../format';

export const PAYEE_LABEL: Record<QuoteView['payToStatus'], string> = {
  pinned: 'same payee as before',
  new: 'first purchase from this service: this payee will be remembered',
  changed: 'CHANGED since your last purchase',
};

/** Each step as a line of the progress list. */
export const STEP_LABEL: Record<PurchaseStep, string> = {
  quoted: 'Price confirmed',
  signing: 'Signing the payment',
  signed: 'Payment signed',
  ledger_written: 'Written to the ledger',
  sent: 'Paid request sent',
  response_received: 'Answer received',
  stored: 'Reports stored',
  completed: 'Done',
  failed: 'Failed',
  in_doubt: 'In doubt',
};

/** What the status region says while at each step: fewer, longer sentences than the list. */
export const STEP_ANNOUNCEMENT: Record<PurchaseStep, string> = {
  quoted: 'Signing the payment…',
  signing: 'Signing the payment…',
  signed: 'Payment signed and written to the ledger…',
  ledger_written: 'Payment signed and written to the ledger…',
  sent: 'Paid request sent; waiting for the reports…',
  response_received: 'Paid request sent; waiting for the reports…',
  stored: 'Reports stored.',
  completed: 'Reports stored.',
  failed: 'Failed.',
  in_doubt: 'In doubt.',
};

/** The outcome in one sentence: shown in the outcome, and said by the panel's status region. */
export function headline(outcome: PurchaseOutcome): string {
  switch (outcome.status) {
    case 'completed': {
      const { purchase } = outcome;
      const reports = plural(purchase.reportCount, 'report');
      return purchase.paidWith === 'library_secret'
        ? `Read ${reports} with the library secret; nothing was paid.`
        : `Bought ${reports} for ${usd(purchase.amount)}.`;
    }
    case 'needs_signature':
      return '';
    case 'failed':
    case 'in_doubt':
      return outcome.message;
  }
}
