/** quote.get: the live price of a choice, with what the payment rules would say about paying it. */
import type { QuoteView, RpcHandlers } from "../../shared/rpc";
import type { DeskContext } from "../context";
import { priceChoice } from "../quoting";
import { QUOTE_FRESH_MS } from "../payments/quote-book";

export const quoteHandlers = (
  ctx: DeskContext,
): Pick<RpcHandlers, "quote.get"> => ({
  "quote.get": async ({
    handle,
    selection,
    includeOwned,
  }): Promise<QuoteView> => {
    const priced = await priceChoice(
      ctx,
      handle,
      selection,
      includeOwned ?? false,
    );
    const { held } = priced;
    const { quote } = held;
    const settings = ctx.settings.get();
    const pinned = ctx.settings.pinnedPayTo(held.serviceUrl);
    const day = new Date(ctx.now());
    day.setHours(0, 0, 0, 0);
    const spent = ctx.ledger.spentSince(day);
    return {
      quoteId: held.id,
      paidWith: ctx.librarySecret() === null ? "payment" : "library_secret",
      handle: held.handle,
      selection: held.selection,
      reportCount: quote.reportCount,
      ownedCount: priced.ownedCount,
      missingCount: priced.missingCount,
      includesOwned: priced.includesOwned,
      ownedCostUsd:
        (Math.round(quote.unitPriceUsd * 1e6) * priced.ownedCount) / 1e6,
      unitPriceUsd: quote.unitPriceUsd,
      totalUsd: Number(quote.amount) / 1e6,
      amount: quote.amount.toString(),
      tokenDecimals: 6,
      network: quote.network,
      chainId: quote.chainId,
      asset: quote.asset,
      payTo: quote.payTo,
      payToStatus:
        pinned === null
          ? "new"
          : pinned.toLowerCase() === quote.payTo.toLowerCase()
            ? "pinned"
            : "changed",
      pinnedPayTo: pinned,
      overPurchaseCap:
        quote.amount > BigInt(Math.round(settings.perPurchaseCapUsd * 1e6)),
      overDailyCap:
        spent + quote.amount > BigInt(Math.round(settings.dailyCapUsd * 1e6)),
      fetchedAt: new Date(held.fetchedAt).toISOString(),
      expiresAt: new Date(held.fetchedAt + QUOTE_FRESH_MS).toISOString(),
    };
  },
});
