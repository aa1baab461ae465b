/** How a quote's payment facts are told to a person: which the service stated and which Intel Desk derived. */
import type { QuoteFact, QuoteView } from './rpc';

export const QUOTE_FACT_LABELS: Record<QuoteFact, string> = {
  reportCount: 'report count',
  unitPrice: 'unit price',
  chainId: 'chain',
  tokenDecimals: 'token decimals',
  select: 'selection',
  resource: 'request',
};

const listed = (facts: QuoteFact[]) => facts.map((fact) => QUOTE_FACT_LABELS[fact]).join(', ');

/** One sentence, or null when the service stated everything (the spec's own challenge). */
export function quoteFactsSentence(view: Pick<QuoteView, 'stated' | 'derived'>): string | null {
  if (view.derived.length === 0) return null;
  const stated = view.stated.length > 0 ? `The service stated the ${listed(view.stated)}; ` : '';
  const derived = `Intel Desk derived the ${listed(view.derived)} from your selection and the free menu`;
  return `${stated}${stated ? derived.charAt(0).toLowerCase() + derived.slice(1) : derived}.`;
}

/** Which payment option is paid, when the service offered more than one; null when it offered one. */
export function quoteOptionSentence(view: Pick<QuoteView, 'option' | 'network' | 'asset'>): string | null {
  if (view.option.of <= 1) return null;
  return `Paying with option ${view.option.number} of ${view.option.of} the service offered (USDC ${view.asset} on ${view.network}), the first Intel Desk is allowed to pay.`;
}
