/**
 * Where every purchase starts: the quote is claimed and made current (asked for again when stale, rule 2),
 * then its reports are read with the library secret (secret-read.ts: nothing signed) or paid for (purchaser.ts).
 */
import type { PurchaseOutcome } from '../../shared/rpc';
import type { LibrarySecret } from '../library/library-secret';
import type { QuoteBook } from './quote-book';
import type { Purchaser, PurchaseRequest } from './purchaser';
import type { Settlement } from './settle';
import { readWithSecret, type SecretReadDeps } from './secret-read';
import { claimQuote } from './selection-guard';

export interface PurchaseStartDeps {
  quotes: QuoteBook;
  purchaser: Purchaser;
  settlement: Pick<Settlement, 'view'>;
  /** The secret for the service now selected (unless that service refused it), and the words when none is. */
  librarySecret: Pick<LibrarySecret, 'current' | 'noneForRead'>;
  secretRead: SecretReadDeps;
}

export async function startPurchase(
  deps: PurchaseStartDeps,
  request: PurchaseRequest,
): Promise<PurchaseOutcome> {
  claimQuote(deps.quotes, request.quoteId);
  let quoteKept = false;
  try {
    const current = await deps.purchaser.currentQuote(request);
    const secret = deps.librarySecret.current();
    const paidWith = request.paidWith ?? (secret === null ? 'payment' : 'library_secret');
    if (paidWith === 'payment') {
      return await deps.purchaser.start(request, current, () => {
        quoteKept = true;
      });
    }
    if (secret === null) throw deps.librarySecret.noneForRead();
    // Signs nothing, so none of the payment checks apply.
    const readId = await readWithSecret(deps.secretRead, current.held, secret);
    return { status: 'completed', purchase: deps.settlement.view(readId) };
  } finally {
    if (!quoteKept) deps.quotes.release(request.quoteId);
  }
}
