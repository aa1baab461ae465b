/**
 * The contract's purchases domain (src/shared/rpc/purchases.ts): prices, buying, the purchase history,
 * spending and budgets, receipts. The payments domain does the work; this is its face.
 */
import type { PurchasesView, RpcHandlers } from '../../shared/rpc';
import { purchaseView } from '../ledger/purchases';
import { normalizeHandle } from '../client/service-client';
import type { CatalogService } from '../catalog/catalog-service';
import type { SettingsStore } from '../settings/settings';
import { lastPrice } from '../payments/last-price';
import { setBudget } from '../payments/budget-setting';
import { receiptGet, receiptsExport, type ReceiptBookDeps } from '../receipts/receipt-book';
import type { Payments } from '../desk/payments';

export interface PurchaseHandlersDeps {
  readonly payments: Payments;
  readonly settings: Pick<SettingsStore, 'get'>;
  readonly catalogService: Pick<CatalogService, 'shelf'>;
  readonly receipts: ReceiptBookDeps;
  /** The selected service as its client names it. */
  baseUrl(): string;
}

type Handlers = Pick<
  RpcHandlers,
  | 'quote.get'
  | 'quote.lastPrice'
  | 'purchase.start'
  | 'purchase.submitSignature'
  | 'purchase.abandonSignature'
  | 'purchases.list'
  | 'purchases.reconcile'
  | 'purchases.spend'
  | 'budget.set'
  | 'receipt.get'
  | 'receipts.export'
>;

export function purchaseHandlers(deps: PurchaseHandlersDeps): Handlers {
  const { payments } = deps;
  const purchasesView = (): PurchasesView => {
    const settings = deps.settings.get();
    return {
      purchases: payments.ledger.list().map(purchaseView),
      spentTodayUnits: payments.spending.spentToday().toString(),
      dailyCapUnits: settings.dailyCapUnits,
      perPurchaseCapUnits: settings.perPurchaseCapUnits,
    };
  };
  return {
    'quote.get': (input) => payments.quote(input),
    'quote.lastPrice': async ({ handle }) => lastPrice(payments, deps.baseUrl(), normalizeHandle(handle)),
    'purchase.start': (input) => payments.startWithConsent(input),
    'purchase.submitSignature': ({ purchaseId, signature }) =>
      payments.purchaser.submitSignature(purchaseId, signature as `0x${string}`),
    'purchase.abandonSignature': async ({ purchaseId }) => ({
      abandoned: payments.purchaser.abandonSignature(purchaseId),
    }),
    'purchases.list': async () => purchasesView(),
    'purchases.reconcile': async () => {
      await payments.reconcile();
      return purchasesView();
    },
    'purchases.spend': async ({ days }) => payments.spending.view(days),
    'budget.set': ({ handle, monthlyUnits, passphrase }) =>
      setBudget(
        { ...payments.consent, budgets: payments.budgets, catalogService: deps.catalogService },
        handle,
        monthlyUnits,
        passphrase,
      ),
    'receipt.get': ({ purchaseId, verify }) => receiptGet(deps.receipts, purchaseId, verify ?? false),
    'receipts.export': (query) => receiptsExport(deps.receipts, query),
  };
}
