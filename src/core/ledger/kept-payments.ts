/**
 * The signed payment of a purchase sent to a service that offers x402's `payment-identifier`, kept sealed in
 * the ledger only until its `validBefore` (decision 0024). It exists for one use: after a lost answer, sending
 * the identical payment again, so the service hands back the answer it kept. It is deleted when the purchase
 * completes or fails, and at the first check or purchase after validBefore, when it could no longer pay.
 */
import { z } from 'zod';
import type { PaymentPayload } from '@x402/core/types';
import type { DeskDb } from '../db/open';
import type { LocalSealer } from '../wallet/sealing';
import { paymentPayloadV2Schema } from '../../shared/wire';
import type { PurchaseRow } from './purchases';
import { paymentIdOf } from './payment-id';

/** A kept payment as it must read back: an x402 v2 payload carrying an id. */
const keptPaymentSchema = paymentPayloadV2Schema.extend({
  extensions: z.record(z.string(), z.unknown()),
});

interface KeptRow {
  payment_id: string;
  valid_before: number;
  sealed: string;
}

export class KeptPayments {
  constructor(
    private readonly db: DeskDb,
    private readonly sealer: LocalSealer,
    private readonly now: () => number,
  ) {}

  /** Keeps a payment that carries a payment id (any other is never kept); call before it is sent. */
  keep(purchaseId: string, payment: PaymentPayload, validBefore: bigint): void {
    const paymentId = paymentIdOf(payment);
    if (paymentId === null) return;
    this.forgetExpired();
    this.db
      .prepare(
        'INSERT INTO kept_payments (purchase_id, payment_id, valid_before, sealed) VALUES (?, ?, ?, ?)',
      )
      .run(purchaseId, paymentId, Number(validBefore), this.sealer.seal(JSON.stringify(payment)));
  }

  /**
   * The payment kept for this purchase, exactly as it was sent, while its authorization is still open; null
   * when none was kept, its window closed, or it cannot be opened (then it is deleted). It must still be the
   * purchase's own payment: the same payer and nonce as the ledger row.
   */
  open(row: PurchaseRow): PaymentPayload | null {
    const sealedRow = this.db
      .prepare<[string], KeptRow>(
        'SELECT payment_id, valid_before, sealed FROM kept_payments WHERE purchase_id = ?',
      )
      .get(row.id);
    if (!sealedRow) return null;
    if (this.now() >= sealedRow.valid_before * 1000) {
      this.forget(row.id);
      return null;
    }
    const opened = this.sealer.open(sealedRow.sealed);
    let json: unknown = null;
    try {
      json = opened === null ? null : JSON.parse(opened);
    } catch {
      json = null;
    }
    const parsed = keptPaymentSchema.safeParse(json);
    const authorization = parsed.success ? parsed.data.payload.authorization : null;
    if (
      !parsed.success ||
      authorization === null ||
      authorization.nonce.toLowerCase() !== row.nonce.toLowerCase() ||
      authorization.from.toLowerCase() !== row.payer.toLowerCase() ||
      Number(authorization.validBefore) !== row.valid_before
    ) {
      this.forget(row.id);
      return null;
    }
    // The JSON as it was sealed, not zod's copy of it: the payment sent again is byte for byte the first.
    return json as PaymentPayload;
  }

  forget(purchaseId: string): void {
    this.db.prepare('DELETE FROM kept_payments WHERE purchase_id = ?').run(purchaseId);
  }

  /** Deletes every kept payment whose authorization has closed; they could not pay or fetch anything. */
  forgetExpired(): void {
    this.db.prepare('DELETE FROM kept_payments WHERE valid_before <= ?').run(Math.floor(this.now() / 1000));
  }
}
