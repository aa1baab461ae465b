/** Quotes shown to the user, kept briefly so a purchase can reuse the challenge it was priced from. */
import { randomUUID } from 'node:crypto';
import type { Selection } from '../../shared/rpc';
import type { Quote } from './quote';

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
  fetchedAt: number;
}

export class QuoteBook {
  private readonly quotes = new Map<string, HeldQuote>();

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

  isFresh(held: HeldQuote): boolean {
    return this.now() - held.fetchedAt < QUOTE_FRESH_MS;
  }

  private prune(): void {
    const cutoff = this.now() - 10 * QUOTE_FRESH_MS;
    for (const [id, held] of this.quotes) if (held.fetchedAt < cutoff) this.quotes.delete(id);
  }
}
