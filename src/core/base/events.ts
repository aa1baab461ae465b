/**
 * Core's events (src/shared/events.ts), emitted by the module where the change happens: the purchaser for
 * each step, the snapshot store, the ledger, the settings store, the library-secret store and the wallet.
 * A purchase step goes out at once, in order (a test may stop the process at one). Change events are
 * gathered until the current task ends and sent once each: a purchase writes its ledger row four times,
 * and the window needs to hear it once, after the write that ended the task has been committed.
 */
import type { DeskEvent, PurchaseStep } from '../../shared/events';

export type DeskEventListener = (event: DeskEvent) => void;
type ChangeEvent = Exclude<DeskEvent, { type: 'purchase.step' }>;

export class DeskEvents {
  private readonly listeners = new Set<DeskEventListener>();
  private pending: Set<ChangeEvent['type']> | null = null;

  /** Listens until the returned function is called. */
  on(listener: DeskEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  step(purchaseId: string, quoteId: string | null, step: PurchaseStep): void {
    this.deliver({ type: 'purchase.step', purchaseId, quoteId, step });
  }

  changed(type: ChangeEvent['type']): void {
    if (this.pending) {
      this.pending.add(type);
      return;
    }
    this.pending = new Set([type]);
    queueMicrotask(() => {
      const types = this.pending ?? new Set<ChangeEvent['type']>();
      this.pending = null;
      for (const each of types) this.deliver({ type: each });
    });
  }

  private deliver(event: DeskEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener that fails (a closed window) must not break the change that was already made.
      }
    }
  }
}
