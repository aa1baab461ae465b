/** Each purchase step as it happens, tagged with the quote the person confirmed so a window follows its own. */
import type { PurchaseStep } from '../../shared/events';

export type { PurchaseStep };

/** quoteId: the quote the person confirmed for this purchase (null for one found again by reconciliation). */
export type StepListener = (purchaseId: string, step: PurchaseStep, quoteId: string | null) => void;

export class PurchaseSteps {
  /** The quote each running purchase was confirmed on. */
  private readonly confirmedQuote = new Map<string, string>();

  constructor(private readonly listener: StepListener) {}

  /** From now until forget(), this purchase's steps name the quote it was confirmed on. */
  confirmed(purchaseId: string, quoteId: string): void {
    this.confirmedQuote.set(purchaseId, quoteId);
  }

  forget(purchaseId: string): void {
    this.confirmedQuote.delete(purchaseId);
  }

  emit(purchaseId: string, step: PurchaseStep): void {
    this.listener(purchaseId, step, this.confirmedQuote.get(purchaseId) ?? null);
  }
}
