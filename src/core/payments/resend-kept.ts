/**
 * Asking again for a lost answer with the payment already sent (decision 0024): the identical payload, to a
 * service that offered payment-identifier, before validBefore. Reconciliation calls it for purchases in doubt.
 */
import { DeskError } from '../base/errors';
import type { PurchaseRow } from '../ledger/purchases';
import type { KeptPayments } from '../ledger/kept-payments';
import type { Reservations } from '../ledger/reservations';
import type { PaidAnswer, ServiceClient } from '../client/service-client';
import type { Settlement } from './settle';

/** How long a check waits for the answer to a kept payment sent again. */
export const RESEND_DEADLINE_MS = 10_000;

export interface KeptResenderDeps {
  /** Payments sent to services that offer payment-identifier, sealed until validBefore. */
  kept: KeptPayments;
  /** A client for a purchase's own service, which may no longer be the one selected. */
  clientFor: (serviceUrl: string) => ServiceClient;
  settlement: Pick<Settlement, 'answered'>;
  /** A purchase a live process is still paying is left to it. */
  reservations: Pick<Reservations, 'atWork'>;
}

export class KeptResender {
  /** Purchases whose kept payment is being sent again now, so two checks at once send it once. */
  private readonly resending = new Set<string>();
  constructor(private readonly deps: KeptResenderDeps) {}

  /**
   * After a lost answer: sends the purchase's kept payment, byte for byte the one already sent, once more to
   * its service, which offered payment-identifier and so answers the same payment with the answer it kept.
   * No new signature and no new authorization: the token settles one nonce at most once. Nothing is sent for a
   * purchase with no kept payment (its service did not offer the extension), past validBefore, or still on
   * its way in this desk, nor to a service in `silentServices` (those that did not answer earlier in the same
   * check). True when an answer came back (stored, or held in doubt by the delivery check).
   */
  async resend(row: PurchaseRow, silentServices: Set<string> = new Set()): Promise<boolean> {
    // Only a purchase already judged in doubt: one a crash left 'sent' is first asked about on chain.
    if (row.state !== 'in_doubt' || silentServices.has(row.service_url)) return false;
    if (this.deps.reservations.atWork(row.id) || this.resending.has(row.id)) return false;
    const payment = this.deps.kept.open(row);
    if (payment === null) return false;
    this.resending.add(row.id);
    try {
      let answer: PaidAnswer;
      // A bounded wait: the check runs at every start, and a service that holds the answer again must not
      // hold the desk with it.
      const deadline = AbortSignal.timeout(RESEND_DEADLINE_MS);
      try {
        answer = await this.deps.clientFor(row.service_url).pay(row.resource, payment, deadline);
      } catch (error) {
        // No answer, or a refusal: the chain and the expiry decide, as for any purchase in doubt. A service
        // that did not answer at all is not asked again in this pass: each ask would wait out the deadline.
        if (deadline.aborted || (error instanceof DeskError && error.kind === 'network'))
          silentServices.add(row.service_url);
        return false;
      }
      this.deps.settlement.answered(row.id, answer, false);
      return true;
    } finally {
      this.resending.delete(row.id);
    }
  }
}
