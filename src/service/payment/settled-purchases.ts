/**
 * Every settled purchase with its answer exactly as sent. A wallet that proves who it is (sign-in.ts) gets these
 * again, free: the paid route for one resource, the purchases route for all of them. Nothing else is given out.
 */
import type { ServiceDb } from '../store/db';
import type { DecodedPayment } from './decode';

export interface SettledPurchase {
  seq: number;
  payer: string;
  nonce: string;
  resource: string;
  username: string;
  reportCount: number;
  amount: string;
  payTo: string;
  network: string;
  asset: string;
  validAfter: string;
  validBefore: string;
  txHash: string;
  settledAt: string;
  /** The paid answer as sent, byte for byte. */
  body: string;
}

interface Row {
  seq: number;
  payer: string;
  nonce: string;
  resource: string;
  username: string;
  report_count: number;
  amount: string;
  pay_to: string;
  network: string;
  asset: string;
  valid_after: string;
  valid_before: string;
  tx_hash: string;
  settled_at: string;
  body: string;
}

const fromRow = (row: Row): SettledPurchase => ({
  seq: row.seq,
  payer: row.payer,
  nonce: row.nonce,
  resource: row.resource,
  username: row.username,
  reportCount: row.report_count,
  amount: row.amount,
  payTo: row.pay_to,
  network: row.network,
  asset: row.asset,
  validAfter: row.valid_after,
  validBefore: row.valid_before,
  txHash: row.tx_hash,
  settledAt: row.settled_at,
  body: row.body,
});

export interface Settlement {
  payment: DecodedPayment;
  resource: string;
  username: string;
  reportCount: number;
  network: string;
  asset: string;
  txHash: string;
  body: string;
}

/** At most this many answer bytes in one page of the purchases route; one purchase always fits. */
export const PAGE_BYTES = 4 * 1024 * 1024;

export class SettledPurchases {
  constructor(
    private readonly db: ServiceDb,
    private readonly now: () => number = () => Date.now(),
  ) {}

  record(settlement: Settlement): void {
    const auth = settlement.payment.authorization;
    this.db
      .prepare(
        `INSERT OR IGNORE INTO settled_purchases (payer, nonce, resource, username, report_count, amount, pay_to,
           network, asset, valid_after, valid_before, tx_hash, settled_at, body)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        auth.from.toLowerCase(),
        auth.nonce.toLowerCase(),
        settlement.resource,
        settlement.username,
        settlement.reportCount,
        auth.value,
        auth.to.toLowerCase(),
        settlement.network,
        settlement.asset.toLowerCase(),
        auth.validAfter,
        auth.validBefore,
        settlement.txHash,
        new Date(this.now()).toISOString(),
        settlement.body,
      );
  }

  /** The newest purchase of exactly this resource by this wallet, or null: the paid route's free re-read. */
  latestFor(payer: string, resource: string): SettledPurchase | null {
    const row = this.db
      .prepare<[string, string], Row>(
        'SELECT * FROM settled_purchases WHERE payer = ? AND resource = ? ORDER BY seq DESC LIMIT 1',
      )
      .get(payer.toLowerCase(), resource);
    return row ? fromRow(row) : null;
  }

  /** The wallet's purchases after `after` (a seq), oldest first, up to PAGE_BYTES of answers (at least one). */
  page(payer: string, after: number, limit: number): { purchases: SettledPurchase[]; more: boolean } {
    const rows = this.db
      .prepare<[string, number, number], Row>(
        'SELECT * FROM settled_purchases WHERE payer = ? AND seq > ? ORDER BY seq LIMIT ?',
      )
      .all(payer.toLowerCase(), after, limit + 1);
    const purchases: SettledPurchase[] = [];
    let bytes = 0;
    for (const row of rows.slice(0, limit)) {
      if (purchases.length > 0 && bytes + row.body.length > PAGE_BYTES) break;
      bytes += row.body.length;
      purchases.push(fromRow(row));
    }
    return { purchases, more: rows.length > purchases.length };
  }
}
