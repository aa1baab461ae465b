/**
 * One purchase the service says this wallet settled, with its answer as first sent, put back into the library.
 * It passes the delivery check any paid answer passes. A purchase the ledger still holds is matched by its
 * authorization (payer and nonce): its receipt's SHA-256 of each report must match the restored bytes, and
 * one left in doubt for want of its reports is completed. One the ledger lacks is recorded as completed: as an
 * ordinary purchase dated by its block when the chain confirmed its payment, else as restored on the service's
 * word, outside the caps and spend totals (ledger/restored.ts) until a later restore finds it on chain.
 */
import { createHash } from 'node:crypto';
import type { PublicClient } from 'viem';
import { z } from 'zod';
import { paidSuccessSchema, type PaidSuccess } from '../../shared/wire';
import type { SnapshotStore } from '../library/snapshots';
import { normalizeHandle } from '../client/service-client';
import type { DeskDb } from '../db/open';
import type { PurchaseLedger, PurchaseRow } from '../ledger/purchases';
import { RESTORED_ID_PREFIX, restoredUnconfirmed } from '../ledger/restored';
import { deliveryMismatch, snapshotsFromAnswer } from '../payments/delivery';
import { deliveredReports } from '../receipts/receipt';

const hex = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`));
const digits = z.string().regex(/^\d{1,78}$/);

export const restoredPurchaseSchema = z.looseObject({
  resource: z.string().min(1).max(4096),
  username: z.string().min(1).max(100),
  reportCount: z.number().int().nonnegative(),
  amount: digits,
  payTo: hex(20),
  network: z.string().regex(/^eip155:\d+$/),
  asset: hex(20),
  nonce: hex(32),
  validAfter: digits,
  validBefore: digits,
  transaction: hex(32),
  settledAt: z.iso.datetime({ offset: true }),
  answer: z.string(),
});
export type RestoredPurchase = z.infer<typeof restoredPurchaseSchema>;

export const purchasesPageSchema = z.looseObject({
  payer: hex(20),
  purchases: z.array(z.unknown()),
  next: z.number().int().nonnegative().nullable(),
});

/** What the chain says of a restored purchase: confirmed, with its block's time, or not (or it could not tell). */
export type ChainConfirmation = { onChain: true; settledAt: string } | { onChain: false };

/** What became of one restored purchase. */
export type RestoreOutcome =
  | { kind: 'restored'; reports: number; onChain: boolean }
  | { kind: 'already_held' }
  | { kind: 'differs_from_receipt'; ids: string[] }
  | { kind: 'refused'; reason: string };

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function parseAnswer(text: string): PaidSuccess | null {
  try {
    const parsed = paidSuccessSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface RestoreDeps {
  db: DeskDb;
  ledger: PurchaseLedger;
  snapshots: SnapshotStore;
  /** Completes a purchase held in doubt with the answer, through the purchase's own delivery check. */
  deliver: (purchaseId: string, body: PaidSuccess, text: string) => { ok: boolean };
  now: () => number;
  /** A read-only client for the network, to confirm a restored payment; null when the desk has none. */
  chain: (network: string) => PublicClient | null;
}

export const restoredPurchaseId = (serviceUrl: string, payer: string, nonce: string) =>
  `${RESTORED_ID_PREFIX}${sha256(`${serviceUrl}\n${payer.toLowerCase()}\n${nonce.toLowerCase()}`).slice(0, 32)}`;

export function applyRestored(
  deps: RestoreDeps,
  serviceUrl: string,
  payer: `0x${string}`,
  purchase: RestoredPurchase,
  confirmation: ChainConfirmation,
): RestoreOutcome {
  const body = parseAnswer(purchase.answer);
  if (!body) return { kind: 'refused', reason: 'its answer is not a list of reports' };
  const handle = normalizeHandle(purchase.username);
  const mismatch = deliveryMismatch({ handle, reportCount: purchase.reportCount, ids: null }, body);
  if (mismatch !== null) return { kind: 'refused', reason: `its answer holds ${mismatch}` };

  // Looked up and written under one write lock: two restores at once (two CLI runs, the app and a run) must
  // not both find the purchase missing and record it twice.
  return deps.db
    .transaction((): RestoreOutcome => {
      let held = deps.ledger.byAuthorization(payer, purchase.nonce);
      // Restored before on the service's word, and now found on chain: from here on an ordinary purchase.
      if (held && confirmation.onChain && restoredUnconfirmed(held)) {
        deps.ledger.confirmRestored(held.id, confirmation.settledAt);
        held = deps.ledger.get(held.id);
      }
      if (held) return restoreHeld(deps, held, body, purchase);
      const id = restoredPurchaseId(serviceUrl, payer, purchase.nonce);
      const entries = snapshotsFromAnswer(body, purchase.answer);
      deps.ledger.insertRestored({
        id,
        serviceUrl,
        handle,
        resource: purchase.resource,
        reportCount: purchase.reportCount,
        amount: purchase.amount,
        network: purchase.network,
        asset: purchase.asset,
        payer,
        payTo: purchase.payTo,
        nonce: purchase.nonce,
        validBefore: Number(purchase.validBefore),
        quoteJson: JSON.stringify({
          restored: { at: new Date(deps.now()).toISOString(), onChain: confirmation.onChain },
          validAfter: purchase.validAfter,
        }),
        txHash: purchase.transaction,
        responseJson: purchase.answer,
        reportIds: entries.map((entry) => entry.snapshot.id),
        createdAt: confirmation.onChain ? confirmation.settledAt : purchase.settledAt,
      });
      deps.snapshots.put(serviceUrl, handle, entries, id, new Date(deps.now()).toISOString());
      return { kind: 'restored', reports: entries.length, onChain: confirmation.onChain };
    })
    .immediate();
}

/** A purchase the ledger holds: the receipt's hashes decide, and only what is missing is stored. In applyRestored's transaction. */
function restoreHeld(
  deps: RestoreDeps,
  row: PurchaseRow,
  body: PaidSuccess,
  purchase: RestoredPurchase,
): RestoreOutcome {
  const receipt = deliveredReports(row.response_json);
  const restored = deliveredReports(purchase.answer);
  const differs = [...receipt].filter(([id, hash]) => restored.has(id) && restored.get(id) !== hash);
  if (differs.length > 0) return { kind: 'differs_from_receipt', ids: differs.map(([id]) => id) };

  if (row.state === 'in_doubt') {
    deps.ledger.saveResponse(row.id, purchase.answer, purchase.transaction);
    const delivered = deps.deliver(row.id, body, purchase.answer);
    return delivered.ok
      ? { kind: 'restored', reports: body.reports.length, onChain: true }
      : { kind: 'refused', reason: 'its answer is not what the purchase bought' };
  }
  if (row.state !== 'completed') {
    return { kind: 'refused', reason: `the purchase is still ${row.state} here; check it first` };
  }
  const owned = deps.snapshots.ownedIds(row.service_url, row.handle);
  const missing = snapshotsFromAnswer(body, purchase.answer).filter((e) => !owned.has(e.snapshot.id));
  if (missing.length === 0) return { kind: 'already_held' };
  deps.snapshots.put(row.service_url, row.handle, missing, row.id, new Date(deps.now()).toISOString());
  return { kind: 'restored', reports: missing.length, onChain: !restoredUnconfirmed(row) };
}
