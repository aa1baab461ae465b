/** Buying and the purchase history: the purchaser does the paying; this is its face to the contract. */
import type { PurchasesView, RpcHandlers } from '../../shared/rpc';
import type { DeskContext } from '../desk/context';
import { purchaseView } from '../ledger/purchases';
import { reconcilePurchases } from '../payments/reconcile';
import { consentToOverCap } from '../payments/consent';

function purchasesView(ctx: DeskContext): PurchasesView {
  const settings = ctx.settings.get();
  return {
    purchases: ctx.ledger.list().map(purchaseView),
    spentTodayUnits: ctx.spending.spentToday().toString(),
    dailyCapUnits: settings.dailyCapUnits,
    perPurchaseCapUnits: settings.perPurchaseCapUnits,
  };
}

/** Settles what can be settled of unfinished purchases; the rest records what it waits for. */
export function reconcile(ctx: DeskContext): Promise<void> {
  return reconcilePurchases({
    ledger: ctx.ledger,
    kept: ctx.keptPayments,
    settlement: ctx.settlement,
    resendKept: (row, silentServices) => ctx.keptResender.resend(row, silentServices),
    chain: (network) => ctx.chain(network),
    rpcUrlFor: (network) => ctx.rpcUrlFor(network),
    atWork: (purchaseId) => ctx.reservations.atWork(purchaseId),
    now: ctx.now,
  });
}

export const purchaseHandlers = (
  ctx: DeskContext,
): Pick<
  RpcHandlers,
  | 'purchase.start'
  | 'purchase.submitSignature'
  | 'purchase.abandonSignature'
  | 'purchases.list'
  | 'purchases.reconcile'
> => ({
  'purchase.start': async (input) => ctx.startPurchase(await consentToOverCap(ctx, input)),
  'purchase.submitSignature': ({ purchaseId, signature }) =>
    ctx.purchaser.submitSignature(purchaseId, signature as `0x${string}`),
  'purchase.abandonSignature': async ({ purchaseId }) => ({
    abandoned: ctx.purchaser.abandonSignature(purchaseId),
  }),
  'purchases.list': async () => purchasesView(ctx),
  'purchases.reconcile': async () => {
    await reconcile(ctx);
    return purchasesView(ctx);
  },
});
