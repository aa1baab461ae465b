/**
 * Paid answers kept by the client's payment id (the x402 `payment-identifier` extension). A client whose answer
 * was lost sends the identical payment again under the same id and gets the same answer back: the payment is
 * settled once, whatever the number of requests carrying it. A different payment under a used id is refused.
 */
import { createHash } from 'node:crypto';
import type { ServiceDb } from '../store/db';
import type { DecodedPayment } from './decode';

/** How long an answer is kept past the authorization's validBefore: the window itself, plus a day. */
export const KEEP_AFTER_VALID_BEFORE_SECONDS = 24 * 60 * 60;

export interface KeptAnswer {
  body: string;
  paymentResponse: string;
}

/** What a payment under an id finds: nothing yet (it may go on), the kept answer, or a refusal. */
export type PaymentIdClaim =
  | { kind: 'new' }
  | { kind: 'answered'; answer: KeptAnswer }
  | { kind: 'in_progress' }
  | { kind: 'other_payment' };

interface Row {
  payload_sha256: string;
  resource: string;
  body: string | null;
  payment_response: string | null;
}

/**
 * What makes two payments identical: the signature and every field of the authorization it signs, with the
 * resource it pays for. Hex is compared without regard to case.
 */
export function paymentDigest(payment: DecodedPayment, resource: string): string {
  const auth = payment.authorization;
  const fields = [
    payment.signature.toLowerCase(),
    auth.from.toLowerCase(),
    auth.to.toLowerCase(),
    auth.value,
    auth.validAfter,
    auth.validBefore,
    auth.nonce.toLowerCase(),
    resource,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

export class PaidAnswers {
  constructor(
    private readonly db: ServiceDb,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * Claims the id for this payment before it settles, or says what the id already holds. Answers past their
   * keeping time are dropped first, so an id is never held for ever.
   */
  claim(paymentId: string, payment: DecodedPayment, resource: string): PaymentIdClaim {
    const nowSeconds = Math.floor(this.now() / 1000);
    this.db.prepare('DELETE FROM paid_answers WHERE keep_until < ?').run(nowSeconds);
    const digest = paymentDigest(payment, resource);
    const keepUntil =
      Math.max(Number(payment.authorization.validBefore), nowSeconds) + KEEP_AFTER_VALID_BEFORE_SECONDS;
    const inserted = this.db
      .prepare(
        `INSERT OR IGNORE INTO paid_answers (payment_id, payer, nonce, payload_sha256, resource, created_at, keep_until)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        paymentId,
        payment.authorization.from.toLowerCase(),
        payment.authorization.nonce.toLowerCase(),
        digest,
        resource,
        new Date(this.now()).toISOString(),
        keepUntil,
      );
    if (inserted.changes === 1) return { kind: 'new' };
    const row = this.db
      .prepare<[string], Row>(
        'SELECT payload_sha256, resource, body, payment_response FROM paid_answers WHERE payment_id = ?',
      )
      .get(paymentId);
    if (!row || row.payload_sha256 !== digest || row.resource !== resource) return { kind: 'other_payment' };
    if (row.body === null || row.payment_response === null) return { kind: 'in_progress' };
    return { kind: 'answered', answer: { body: row.body, paymentResponse: row.payment_response } };
  }

  /** Keeps the answer of the payment that claimed the id and settled. */
  keep(paymentId: string, answer: KeptAnswer): void {
    this.db
      .prepare('UPDATE paid_answers SET body = ?, payment_response = ? WHERE payment_id = ?')
      .run(answer.body, answer.paymentResponse, paymentId);
  }

  /** A payment that did not settle frees its id, so the payer may send it again. */
  release(paymentId: string): void {
    this.db.prepare('DELETE FROM paid_answers WHERE payment_id = ? AND body IS NULL').run(paymentId);
  }
}
