/** Live pricing: the 402 challenge for exactly the user's selection, validated into a held quote. */
import type { QuoteView, Selection } from '../shared/rpc';
import type { DeskContext } from './context';
import { normalizeHandle, resourcePath } from './client/service-client';
import { quoteFromChallenge, type Quote } from './payments/quote';
import { DeskError } from './errors';

const ALLOWLIST_CODES = new Set(['network_not_allowed', 'asset_not_allowed']);
import { QUOTE_FRESH_MS, type HeldQuote } from './payments/quote-book';

async function expectedReportCount(
  ctx: DeskContext,
  handle: string,
  selection: Selection,
): Promise<number | null> {
  if (selection.kind === 'ids') return new Set(selection.ids).size;
  if (selection.kind === 'all') return (await ctx.client().menu(handle)).reportCount;
  return null;
}

async function priceSelection(ctx: DeskContext, handle: string, selection: Selection): Promise<HeldQuote> {
  const client = ctx.client();
  const path = resourcePath(handle, selection);
  const [challenge, expected] = await Promise.all([
    client.challenge(path),
    expectedReportCount(ctx, handle, selection),
  ]);
  const expect = {
    demo: ctx.demo,
    demoAsset: ctx.demoAsset,
    resourcePath: path,
    expectedReportCount: expected,
  };
  let quote: Quote;
  let secretReadOnly = false;
  try {
    quote = quoteFromChallenge(challenge, expect);
  } catch (error) {
    // A read with the library secret signs nothing, so the networks Intel Desk pays on do not limit it.
    const allowlist = error instanceof DeskError && ALLOWLIST_CODES.has(error.code);
    if (!allowlist || ctx.librarySecret() === null) throw error;
    const asset = challenge.accepts[0]?.asset ?? null;
    quote = quoteFromChallenge(challenge, { ...expect, demo: true, demoAsset: asset });
    secretReadOnly = true;
  }
  ctx.lastAsset = { network: quote.network, asset: quote.asset };
  return ctx.quotes.hold({
    serviceUrl: client.baseUrl,
    handle: normalizeHandle(handle),
    selection,
    quote,
    ...(secretReadOnly ? { secretReadOnly } : {}),
  });
}

export function requote(ctx: DeskContext, held: HeldQuote): Promise<HeldQuote> {
  return priceSelection(ctx, held.handle, held.selection);
}

export async function getQuote(ctx: DeskContext, handle: string, selection: Selection): Promise<QuoteView> {
  const held = await priceSelection(ctx, handle, selection);
  const { quote } = held;
  const settings = ctx.settings.get();
  const pinned = ctx.settings.pinnedPayTo(held.serviceUrl);
  const day = new Date(ctx.now());
  day.setHours(0, 0, 0, 0);
  const spent = ctx.ledger.spentSince(day);
  return {
    quoteId: held.id,
    paidWith: ctx.librarySecret() === null ? 'payment' : 'library_secret',
    handle: held.handle,
    selection,
    reportCount: quote.reportCount,
    unitPriceUsd: quote.unitPriceUsd,
    totalUsd: Number(quote.amount) / 1e6,
    amount: quote.amount.toString(),
    tokenDecimals: 6,
    network: quote.network,
    chainId: quote.chainId,
    asset: quote.asset,
    payTo: quote.payTo,
    payToStatus:
      pinned === null ? 'new' : pinned.toLowerCase() === quote.payTo.toLowerCase() ? 'pinned' : 'changed',
    pinnedPayTo: pinned,
    overPurchaseCap: quote.amount > BigInt(Math.round(settings.perPurchaseCapUsd * 1e6)),
    overDailyCap: spent + quote.amount > BigInt(Math.round(settings.dailyCapUsd * 1e6)),
    fetchedAt: new Date(held.fetchedAt).toISOString(),
    expiresAt: new Date(held.fetchedAt + QUOTE_FRESH_MS).toISOString(),
  };
}
