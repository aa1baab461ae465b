/**
 * Spending and payment facts in one place. What counts against the caps is one SQL rule (ledger/spend.ts):
 * every purchase not known to have failed, one in doubt in full. To it this adds the payments reserved and not
 * in the ledger yet (being signed, in this process or another: ledger/reservations.ts), so a quote, the
 * purchase's own check, the Purchases screen and the spend summary all count the same money, and purchases
 * started at once in any number of processes cannot go over the daily cap or a handle's budget together.
 * Amounts are token base units (bigint) throughout.
 */
import { startOfLocalDay, startOfLocalMonth } from '../../shared/money';
import type { SettingsStore } from '../settings/settings';
import type { PurchaseLedger } from '../ledger/purchases';
import type { SpendLedger } from '../ledger/spend';
import type { HandleBudgets } from '../ledger/budgets';
import type { Reservations } from '../ledger/reservations';
import { handleKey } from '../../shared/handle-key';
import type { HeldQuote } from './quote-book';
import { enforcePayment, type Consent, type PaymentFacts } from './policy';

export interface SpendingDeps {
  ledger: Pick<PurchaseLedger, 'get'>;
  spend: SpendLedger;
  budgets: HandleBudgets;
  settings: SettingsStore;
  reservations: Reservations;
  now: () => number;
}

export class Spending {
  constructor(private readonly deps: SpendingDeps) {}

  /**
   * What counts against today's cap: since local midnight, in the ledger or reserved. `excluding`: purchases
   * judged again after they reserved (an external signature coming back), whose own money is the amount.
   */
  spentToday(excluding: readonly string[] = []): bigint {
    const since = startOfLocalDay(this.deps.now());
    return this.deps.spend.countedSince(since) + this.reserved(null, since, excluding);
  }

  /** What counts against the handle's monthly budget (matched as handleKey does), as spentToday counts. */
  handleThisMonth(handle: string, excluding: readonly string[] = []): bigint {
    const monthStart = startOfLocalMonth(this.deps.now());
    return this.deps.spend.handleSince(handle, monthStart) + this.reserved(handle, monthStart, excluding);
  }

  /** Everything the payment rules (policy.ts) look at for paying this quote to this service. */
  paymentFacts(held: HeldQuote, serviceUrl: string, excluding: readonly string[] = []): PaymentFacts {
    const { quote, handle } = held;
    return {
      amount: quote.amount,
      payTo: quote.payTo,
      pinnedPayTo: this.deps.settings.pinnedPayTo(serviceUrl),
      caps: this.deps.settings.get(),
      spent: this.spentToday(excluding),
      handle: {
        name: handle,
        budget: this.deps.budgets.get(handle),
        spentThisMonth: this.handleThisMonth(handle, excluding),
      },
    };
  }

  /** Refuses the payment unless the rules allow it or the person accepted going over (policy.ts). */
  enforce(held: HeldQuote, consent: Consent, serviceUrl: string, excluding: readonly string[] = []): void {
    enforcePayment(this.paymentFacts(held, serviceUrl, excluding), consent);
  }

  /** Standing reservations with no ledger row yet, of one handle or of all, taken since `since`. */
  private reserved(handle: string | null, since: Date, excluding: readonly string[]): bigint {
    const key = handle === null ? null : handleKey(handle);
    let sum = 0n;
    for (const reservation of this.deps.reservations.standing()) {
      if (excluding.includes(reservation.purchaseId)) continue;
      if (key !== null && handleKey(reservation.handle) !== key) continue;
      if (Date.parse(reservation.createdAt) < since.getTime()) continue;
      if (!this.deps.ledger.get(reservation.purchaseId)) sum += reservation.amount;
    }
    return sum;
  }
}
