/**
 * Spending and payment facts in one place. What counts against the caps is one SQL rule (ledger/spend.ts):
 * every purchase not known to have failed, one in doubt in full. To it this adds the payments past the check
 * that have no ledger row yet (being signed and sent), so a quote, the purchase's own check, the Purchases
 * screen and the spend summary all count the same money, and two purchases started at once cannot go over
 * the daily cap or a handle's budget together. Amounts are token base units (bigint) throughout.
 */
import { startOfLocalDay, startOfLocalMonth } from '../../shared/money';
import type { SettingsStore } from '../settings';
import type { PurchaseLedger } from '../ledger/purchases';
import type { SpendLedger } from '../ledger/spend';
import type { HandleBudgets } from '../ledger/budgets';
import type { HeldQuote } from './quote-book';
import { enforcePayment, type Consent, type PaymentFacts } from './policy';

export interface SpendingDeps {
  ledger: Pick<PurchaseLedger, 'get'>;
  spend: SpendLedger;
  budgets: HandleBudgets;
  settings: SettingsStore;
  now: () => number;
}

export class Spending {
  /** Payments past the check, by purchase id, until their purchase ends. */
  private readonly pending = new Map<string, { amount: bigint; handle: string }>();

  constructor(private readonly deps: SpendingDeps) {}

  /** What counts against today's cap: since local midnight, in the ledger or being paid now. */
  spentToday(): bigint {
    return this.deps.spend.countedSince(startOfLocalDay(this.deps.now())) + this.uncommitted(null);
  }

  /** What counts against the handle's monthly budget (matched without case), as spentToday counts. */
  handleThisMonth(handle: string): bigint {
    const monthStart = startOfLocalMonth(this.deps.now());
    return this.deps.spend.handleSince(handle, monthStart) + this.uncommitted(handle);
  }

  /** Everything the payment rules (policy.ts) look at for paying this quote to this service. */
  paymentFacts(held: HeldQuote, serviceUrl: string): PaymentFacts {
    const { quote, handle } = held;
    return {
      amount: quote.amount,
      payTo: quote.payTo,
      pinnedPayTo: this.deps.settings.pinnedPayTo(serviceUrl),
      caps: this.deps.settings.get(),
      spent: this.spentToday(),
      handle: {
        name: handle,
        budget: this.deps.budgets.get(handle),
        spentThisMonth: this.handleThisMonth(handle),
      },
    };
  }

  /** Refuses the payment unless the rules allow it or the person accepted going over (policy.ts). */
  enforce(held: HeldQuote, consent: Consent, serviceUrl: string): void {
    enforcePayment(this.paymentFacts(held, serviceUrl), consent);
  }

  /** The payment passed the check and is being signed and sent: every count includes it from now on. */
  signing(purchaseId: string, held: HeldQuote): void {
    this.pending.set(purchaseId, { amount: held.quote.amount, handle: held.handle });
  }

  /** Its purchase ended: its ledger row (if any) counts from now on. */
  done(purchaseId: string): void {
    this.pending.delete(purchaseId);
  }

  /** Pending payments with no ledger row yet, of one handle (matched without case) or of all. */
  private uncommitted(handle: string | null): bigint {
    let sum = 0n;
    for (const [id, entry] of this.pending) {
      if (handle !== null && entry.handle.toLowerCase() !== handle.toLowerCase()) continue;
      if (!this.deps.ledger.get(id)) sum += entry.amount;
    }
    return sum;
  }
}
