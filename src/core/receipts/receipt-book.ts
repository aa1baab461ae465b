/** Receipts: one purchase's evidence, checked on chain on request, and receipts or purchases as files. */
import type { PublicClient } from 'viem';
import type { ExportedFile } from '../../shared/rpc';
import type { Receipt } from '../../shared/receipt';
import { DeskError } from '../base/errors';
import type { PurchaseLedger, PurchaseRow } from '../ledger/purchases';
import type { SnapshotStore } from '../library/snapshots';
import { buildReceipt } from './receipt';
import { purchasesCsv, receiptsJson, receiptsPdf } from './receipt-files';
import { verifyOnChain } from './verify';

export interface ReceiptBookDeps {
  readonly ledger: Pick<PurchaseLedger, 'get' | 'list'>;
  readonly snapshots: Pick<SnapshotStore, 'raw'>;
  /** A read-only client for the payment's chain, to check it on request; null when none is known. */
  chain(network: string): PublicClient | null;
}

async function receiptOf(ctx: ReceiptBookDeps, row: PurchaseRow, verify: boolean): Promise<Receipt> {
  const paid = row.paid_with !== 'library_secret';
  const verification =
    verify && paid
      ? await verifyOnChain(
          {
            network: row.network,
            asset: row.asset,
            payer: row.payer,
            payTo: row.pay_to,
            amount: row.amount,
            nonce: row.nonce,
            txHash: row.tx_hash,
            createdAt: row.created_at,
          },
          ctx.chain(row.network),
        )
      : null;
  return buildReceipt({
    row,
    storedRaw: (serviceUrl, id) => ctx.snapshots.raw(id, serviceUrl, serviceUrl)?.raw ?? null,
    verification,
  });
}

export async function receiptGet(
  ctx: ReceiptBookDeps,
  purchaseId: string,
  verify: boolean,
): Promise<Receipt> {
  const row = ctx.ledger.get(purchaseId);
  if (!row) {
    throw new DeskError(
      'purchase_unknown',
      `There is no purchase ${purchaseId} in this desk's ledger; \`intel-desk purchases\` lists them.`,
      'usage',
    );
  }
  return receiptOf(ctx, row, verify);
}

export interface ReceiptsQuery {
  purchaseIds?: string[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
  format: 'json' | 'pdf' | 'csv';
  verify?: boolean | undefined;
}

/** Day strings compare as the start (from) or the whole day (to); full timestamps compare as given. */
function inPeriod(createdAt: string, from: string | undefined, to: string | undefined): boolean {
  if (from !== undefined && createdAt < from) return false;
  if (to !== undefined && (to.length === 10 ? createdAt.slice(0, 10) > to : createdAt > to)) return false;
  return true;
}

export async function receiptsExport(ctx: ReceiptBookDeps, query: ReceiptsQuery): Promise<ExportedFile> {
  const chosenIds = query.purchaseIds ? new Set(query.purchaseIds) : null;
  const rows = ctx.ledger
    .list()
    .filter((row) => (chosenIds ? chosenIds.has(row.id) : true))
    .filter((row) => inPeriod(row.created_at, query.from, query.to));
  const missing = chosenIds ? [...chosenIds].filter((id) => !rows.some((row) => row.id === id)) : [];
  if (missing.length > 0) {
    throw new DeskError(
      'purchase_unknown',
      `There is no purchase ${missing.join(', ')} in this period of the ledger.`,
      'usage',
    );
  }
  if (query.format === 'csv') return purchasesCsv(rows);
  const receipts: Receipt[] = [];
  for (const row of rows) receipts.push(await receiptOf(ctx, row, query.verify ?? false));
  return query.format === 'json' ? receiptsJson(receipts) : receiptsPdf(receipts);
}
