/**
 * quote.lastPrice: the last price per report the selected service asked, for this handle if it was ever
 * priced, else for any of the service's handles. The newer of a purchase in the ledger and a quote held this
 * run wins.
 */
import type { LastPriceView } from '../../shared/rpc';
import type { SpendLedger } from '../ledger/spend';
import type { QuoteBook } from './quote-book';

export interface LastPriceDeps {
  readonly spend: Pick<SpendLedger, 'lastPayment'>;
  readonly quotes: Pick<QuoteBook, 'latest'>;
}

export function lastPrice(deps: LastPriceDeps, serviceUrl: string, handle: string): LastPriceView | null {
  for (const handleOrAny of [handle, null]) {
    const paid = deps.spend.lastPayment(serviceUrl, handleOrAny);
    const quoted = deps.quotes.latest(serviceUrl, handleOrAny);
    const quotedAt = quoted ? new Date(quoted.fetchedAt).toISOString() : null;
    if (quoted && quotedAt !== null && (!paid || quotedAt >= paid.createdAt)) {
      return {
        unitPriceUnits: quoted.quote.unitPrice.toString(),
        at: quotedAt,
        source: 'quote',
        handle: quoted.handle,
      };
    }
    if (paid) {
      const unit = BigInt(paid.amount) / BigInt(paid.reportCount);
      return { unitPriceUnits: unit.toString(), at: paid.createdAt, source: 'purchase', handle: paid.handle };
    }
  }
  return null;
}
