/**
 * The terms a purchase request was made at, against the live quote an approval would pay (decision 0039).
 * The person approves what they were shown: the service, the network, the token, the payee, the reports and
 * the price. Only a lower price is not a new question; anything else changed is refused before anything is
 * signed, naming what changed.
 */
import type { PurchaseRequestView } from '../../shared/rpc';
import { formatUnitsUsd } from '../../shared/money';
import { refused } from '../base/errors';
import type { HeldQuote } from './quote-book';

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function idsChange(asked: string[], live: string[]): string | null {
  const was = new Set(asked);
  const now = new Set(live);
  const added = live.filter((id) => !was.has(id));
  const gone = asked.filter((id) => !now.has(id));
  if (added.length === 0 && gone.length === 0) return null;
  const few = (list: string[]) =>
    list.slice(0, 3).join(', ') + (list.length > 3 ? ` and ${list.length - 3} more` : '');
  const how = [gone.length > 0 ? `without ${few(gone)}` : '', added.length > 0 ? `with ${few(added)}` : '']
    .filter(Boolean)
    .join(', ');
  return `the reports changed (${how})`;
}

/** Each term of the live quote that differs from the request's, in words; empty when it may be paid. */
export function requestTermsChanges(request: PurchaseRequestView, live: HeldQuote): string[] {
  const { quote } = live;
  const changes: string[] = [];
  if (live.serviceUrl !== request.serviceUrl)
    changes.push(`the service changed from ${request.serviceUrl} to ${live.serviceUrl}`);
  if (quote.network !== request.network)
    changes.push(`the network changed from ${request.network} to ${quote.network}`);
  if (request.asset !== null && !sameAddress(quote.asset, request.asset))
    changes.push(`the token changed from ${request.asset} to ${quote.asset}`);
  if (!sameAddress(quote.payTo, request.payTo))
    changes.push(`the payee changed from ${request.payTo} to ${quote.payTo}`);
  if (request.reportIds !== null) {
    const ids = idsChange(request.reportIds, live.expectedIds);
    if (ids) changes.push(ids);
  }
  if (request.unitPriceUnits !== null && quote.unitPrice > BigInt(request.unitPriceUnits))
    changes.push(
      `the price of a report rose from ${formatUnitsUsd(request.unitPriceUnits)} to ${formatUnitsUsd(quote.unitPrice)}`,
    );
  if (quote.amount > BigInt(request.amount))
    changes.push(`the total rose from ${formatUnitsUsd(request.amount)} to ${formatUnitsUsd(quote.amount)}`);
  return changes;
}

/** Refuses paying `live` for `request` unless every term is the one the person was shown. */
export function assertRequestTerms(request: PurchaseRequestView, live: HeldQuote): void {
  if (request.asset === null || request.unitPriceUnits === null || request.reportIds === null)
    throw refused(
      'request_terms_changed',
      `Purchase request ${request.id} was recorded by an earlier version of Intel Desk, which did not keep its token, unit price and reports, so they cannot be checked; nothing was paid. Ask for it again.`,
    );
  const changes = requestTermsChanges(request, live);
  if (changes.length === 0) return;
  const said = changes.join('; ');
  throw refused(
    'request_terms_changed',
    `Since purchase request ${request.id} was made, ${said}; nothing was paid. The person approves the terms they were shown: ask for it again on the new terms.`,
    { changes },
  );
}
