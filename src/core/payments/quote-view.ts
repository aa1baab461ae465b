/**
 * quote.get's answer: the live price of a choice, with what the payment rules would say about paying it. The
 * quote handler and approving an assistant's purchase request both price through here.
 */
import type { QuoteView, RpcInput } from '../../shared/rpc';
import type { SettingsStore } from '../settings/settings';
import type { PurchaseLedger } from '../ledger/purchases';
import { priceChoice, type QuotingDeps } from './quoting';
import type { Spending } from './spending';
import { QUOTE_FRESH_MS } from './quote-book';
import { judgePayment } from './policy';
import { unresolvedPurchase } from './selection-guard';
import { TOKEN_DECIMALS } from '../../shared/money';
import type { TeamGate } from './team-gate';

/** What pricing reads, and the rules' facts: the settings' pinned payees, spending, unresolved purchases. */
export interface QuoteViewDeps extends QuotingDeps {
  readonly settings: Pick<SettingsStore, 'pinnedPayTo'>;
  readonly spending: Pick<Spending, 'paymentFacts'>;
  readonly ledger: PurchaseLedger;
  /** The team's word on the quote's reports (team-gate.ts); null in no team. */
  readonly team: Pick<TeamGate, 'look'>;
}

export async function quoteView(ctx: QuoteViewDeps, input: RpcInput<'quote.get'>): Promise<QuoteView> {
  const { handle, selection, includeOwned } = input;
  const priced = await priceChoice(ctx, handle, selection, includeOwned ?? false);
  const { held } = priced;
  const { quote } = held;
  const pinned = ctx.settings.pinnedPayTo(held.serviceUrl);
  // The same facts purchase.start will judge, payments being signed now included (spending.ts).
  const verdict = judgePayment(ctx.spending.paymentFacts(held, held.serviceUrl));
  const unresolved = unresolvedPurchase(ctx.ledger, {
    serviceUrl: held.serviceUrl,
    handle: held.handle,
    selection: held.selection,
  });
  const team = await ctx.team.look({
    serviceUrl: held.serviceUrl,
    handle: held.handle,
    reportIds: held.expectedIds,
    amount: quote.amount,
    network: quote.network,
    asset: quote.asset,
  });
  return {
    quoteId: held.id,
    paidWith: ctx.librarySecret.current() === null ? 'payment' : 'library_secret',
    secretAvailable: ctx.librarySecret.current() !== null,
    payable: held.secretReadOnly !== true,
    handle: held.handle,
    selection: held.selection,
    reportCount: quote.reportCount,
    ownedCount: priced.ownedCount,
    missingCount: priced.missingCount,
    includesOwned: priced.includesOwned,
    ownedCostUnits: (quote.unitPrice * BigInt(priced.ownedCount)).toString(),
    unitPriceUnits: quote.unitPrice.toString(),
    amount: quote.amount.toString(),
    tokenDecimals: TOKEN_DECIMALS,
    network: quote.network,
    chainId: quote.chainId,
    asset: quote.asset,
    payTo: quote.payTo,
    payToStatus: verdict.payToStatus,
    pinnedPayTo: pinned,
    overPurchaseCap: verdict.overPurchaseCap,
    overDailyCap: verdict.overDailyCap,
    overHandleBudget: verdict.overHandleBudget,
    unresolved:
      unresolved && (unresolved.state === 'sent' || unresolved.state === 'in_doubt')
        ? { purchaseId: unresolved.id, state: unresolved.state, createdAt: unresolved.created_at }
        : null,
    team,
    option: { number: quote.option.index + 1, of: quote.option.count },
    stated: quote.facts.stated,
    derived: quote.facts.derived,
    fetchedAt: new Date(held.fetchedAt).toISOString(),
    expiresAt: new Date(held.fetchedAt + QUOTE_FRESH_MS).toISOString(),
  };
}
