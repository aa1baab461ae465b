/**
 * The words for each state of a quote and a purchase, keyed by the state's type: a new state fails to
 * compile until it has its words here.
 */
import type { PurchaseOutcome, QuoteView } from '../../../shared/rpc';
import type { PurchaseStep } from '../../../shared/events';
import { plural, usd } from '../../format';
import { purchaseText as t } from '../../text/purchase';

export const PAYEE_LABEL: Record<QuoteView['payToStatus'], string> = {
  pinned: t('payeePinned'),
  new: t('payeeNew'),
  changed: t('payeeChanged'),
};

/** Each step as a line of the progress list. */
export const STEP_LABEL: Record<PurchaseStep, string> = {
  quoted: t('stepQuoted'),
  signing: t('stepSigning'),
  signed: t('stepSigned'),
  ledger_written: t('stepLedger'),
  sent: t('stepSent'),
  response_received: t('stepAnswered'),
  stored: t('stepStored'),
  completed: t('stepCompleted'),
  failed: t('stepFailed'),
  in_doubt: t('stepInDoubt'),
};

/** What the status region says while at each step: fewer, longer sentences than the list. */
export const STEP_ANNOUNCEMENT: Record<PurchaseStep, string> = {
  quoted: t('saySigning'),
  signing: t('saySigning'),
  signed: t('saySigned'),
  ledger_written: t('saySigned'),
  sent: t('saySent'),
  response_received: t('saySent'),
  stored: t('sayStored'),
  completed: t('sayStored'),
  failed: t('sayFailed'),
  in_doubt: t('sayInDoubt'),
};

/** The outcome in one sentence: shown in the outcome, and said by the panel's status region. */
export function headline(outcome: PurchaseOutcome): string {
  switch (outcome.status) {
    case 'completed': {
      const { purchase } = outcome;
      const reports = plural(purchase.reportCount, t('report'), t('reports'));
      return purchase.paidWith === 'library_secret'
        ? t('readWithSecret', { reports })
        : t('bought', { reports, amount: usd(purchase.amount) });
    }
    case 'needs_signature':
      return '';
    case 'failed':
    case 'in_doubt':
      return outcome.message;
  }
}
