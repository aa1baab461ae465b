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

/** "a", "a and b", "a, b and c". */
function listed(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** Facts the desk takes from the payment option and its own request rather than from the service's word. */
const FROM_REQUEST: QuoteFact[] = ['chainId', 'tokenDecimals', 'select', 'resource'];

/**
 * One sentence, or null when the service stated everything (the spec's own challenge): what the service stated,
 * and how Intel Desk arrived at each fact it did not.
 */
export function quoteFactsSentence(view: Pick<QuoteView, 'stated' | 'derived'>): string | null {
  if (view.derived.length === 0) return null;
  const how: string[] = [];
  if (view.derived.includes('reportCount'))
    how.push('the report count from your selection and the free menu');
  if (view.derived.includes('unitPrice')) how.push('the unit price as the amount divided by that count');
  const rest = FROM_REQUEST.filter((fact) => view.derived.includes(fact)).map(
    (fact) => QUOTE_FACT_LABELS[fact],
  );
  if (rest.length > 0) how.push(`the ${listed(rest)} from the payment option and your request`);
  const stated =
    view.stated.length > 0
      ? `The service stated the ${listed(view.stated.map((fact) => QUOTE_FACT_LABELS[fact]))}. `
      : "The service stated none of the spec's price facts. ";
  return `${stated}Intel Desk derived ${listed(how)}.`;
}

/** Which payment option is paid, when the service offered more than one; null when it offered one. */
export function quoteOptionSentence(view: Pick<QuoteView, 'option' | 'network' | 'asset'>): string | null {
  if (view.option.of <= 1) return null;
  return `Paying with option ${view.option.number} of ${view.option.of} the service offered (USDC ${view.asset} on ${view.network}), the first Intel Desk is allowed to pay.`;
}
