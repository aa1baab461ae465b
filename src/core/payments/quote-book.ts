/** Quotes shown to the user, kept briefly so a purchase can reuse the challenge it was priced from. */
import { randomUUID } from 'node:crypto';
import type { Selection } from '../../shared/rpc';
import type { Quote } from './quote';
import { handleKey } from '../../shared/handle-key';

export const QUOTE_FRESH_MS = 60_000;

export interface HeldQuote {
  id: string;
  serviceUrl: string;
  handle: string;
  selection: Selection;
  quote: Quote;
  /**
   * The report ids this purchase must deliver, as the menu (all, dates) or the request (ids) says; the paid
   * answer is checked against them before anything is stored.
   */
  expectedIds: string[];
  /** Of those, the ones owned already when quoted and bought again by choice; any other owned since is not. */
  ownedWhenQuoted: string[];
  fetchedAt: number;
  /**
   * Priced for a read with the library secret on a network Intel Desk never pays on (a real service on the
   * local chain): the read signs nothing, and the quote can never be paid.
   */
  secretReadOnly?: boolean;
}

/** Where a held quote stands: free to use, being used by a purchase that has not signed yet, or spent. */
export type QuoteUse = 'free' | 'in_use' | 'spent';

export class QuoteBook {
  private readonly quotes = new Map<string, HeldQuote>();
  /** Quotes a purchase holds or has spent; kept longer than the quotes, so a spent id never reads as unknown. */
  private readonly uses = new Map<string, { use: 'in_use' | 'spent'; at: number }>();

  constructor(private readonly now: () => number) {}

  hold(entry: Omit<HeldQuote, 'id' | 'fetchedAt'>): HeldQuote {
    this.prune();
    const held = { ...entry, id: randomUUID(), fetchedAt: this.now() };
    this.quotes.set(held.id, held);
    return held;
  }

  get(id: string): HeldQuote | undefined {
    return this.quotes.get(id);
  }

  /**
   * Takes the quote for one purchase. Synchronous, so of two calls at once (a double click, two windows) only
   * the first gets it; the other sees it in use or spent.
   */
  claim(id: string): QuoteUse {
    const current = this.uses.get(id)?.use ?? 'free';
    if (current === 'free') this.uses.set(id, { use: 'in_use', at: this.now() });
    return current;
  }

  /** Gives a claimed quote back: the purchase stopped before anything was signed. */
  release(id: string): void {
    if (this.uses.get(id)?.use === 'in_use') this.uses.delete(id);
  }

  /** The purchase signs with this quote: it can never be used again. */
  spend(id: string): void {
    this.uses.set(id, { use: 'spent', at: this.now() });
  }

  /** The newest quote still held for the service, and the handle unless null (matched without case). */
  latest(serviceUrl: string, handle: string | null): HeldQuote | null {
    let newest: HeldQuote | null = null;
    for (const held of this.quotes.values()) {
      if (held.serviceUrl !== serviceUrl || held.secretReadOnly) continue;
      if (handle !== null && handleKey(held.handle) !== handleKey(handle)) continue;
      if (!newest || held.fetchedAt >= newest.fetchedAt) newest = held;
    }
    return newest;
  }

  isFresh(held: HeldQuote): boolean {
    return this.now() - held.fetchedAt < QUOTE_FRESH_MS;
  }

  private prune(): void {
    const cutoff = this.now() - 10 * QUOTE_FRESH_MS;
    for (const [id, held] of this.quotes) if (held.fetchedAt < cutoff) this.quotes.delete(id);
    const useCutoff = this.now() - 60 * QUOTE_FRESH_MS;
    for (const [id, use] of this.uses) if (use.at < useCutoff) this.uses.delete(id);
  }
}
