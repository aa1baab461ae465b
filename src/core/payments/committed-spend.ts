/**
 * The payment rules (policy.ts) judged against everything committed: the ledger's purchases not failed
 * (in doubt included) and payments past the check that have no ledger row yet. Counting those is what keeps
 * two purchases started at once from going over the daily cap or a handle's budget together.
 */
import { startOfLocalDay, startOfLocalMonth } from '../../shared/money';
import type { SettingsStore } from '../settings';
import type { PurchaseLedger } from '../ledger/purchases';
import type { SpendLedger } from '../ledger/spend';
import type { HandleBudgets } from '../ledger/budgets';
import type { HeldQuote } from './quote-book';
import { enforcePayment, spentToday, type Consent } from './policy';

export interface CommittedSpendDeps {
  ledger: PurchaseLedger;
  spend: SpendLedger;
  budgets: HandleBudgets;
  settings: SettingsStore;
  now: () => number;
}

export class CommittedSpend {
  /** Payments past the check, by purchase id, until their purchase ends. */
  private readonly pending = new Map<string, { amount: bigint; handle: string }>();

  constructor(private readonly deps: CommittedSpendDeps) {}

  /** Refuses the payment unless the rules allow it or the person accepted going over (policy.ts). */
  enforce(held: HeldQuote, consent: Consent, serviceUrl: string): void {
    const now = this.deps.now();
    const { quote, handle } = held;
    enforcePayment(
      {
        amount: quote.amount,
        payTo: quote.payTo,
        pinnedPayTo: this.deps.settings.pinnedPayTo(serviceUrl),
        caps: this.deps.settings.get(),
        spent: spentToday(this.deps.ledger.spendSince(startOfLocalDay(now)), now) + this.uncommitted(null),
        handle: {
          name: handle,
          budget: this.deps.budgets.get(handle),
          spentThisMonth:
            this.deps.spend.handleSince(handle, startOfLocalMonth(now)) + this.uncommitted(handle),
        },
      },
      consent,
    );
  }

  /** The payment passed the check and is being signed and sent: the next check counts it. */
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
