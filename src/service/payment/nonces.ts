/** The service's record of payment nonces: reserved before settlement, settled after. */
import type { ServiceDb } from '../store/db';

export class NonceBook {
  constructor(private readonly db: ServiceDb) {}

  /** False when the nonce was already reserved or settled for this payer. */
  reserve(authorizer: string, nonce: string, amount: string, resource: string): boolean {
    const result = this.db
      .prepare(
        `INSERT OR IGNORE INTO payment_nonces (authorizer, nonce, state, amount, resource, created_at)
         VALUES (?, ?, 'reserved', ?, ?, ?)`,
      )
      .run(authorizer.toLowerCase(), nonce.toLowerCase(), amount, resource, new Date().toISOString());
    return result.changes === 1;
  }

  /** A payment that never reached the chain frees its nonce, so the payer may try again with it. */
  release(authorizer: string, nonce: string): void {
    this.db
      .prepare(`DELETE FROM payment_nonces WHERE authorizer = ? AND nonce = ? AND state = 'reserved'`)
      .run(authorizer.toLowerCase(), nonce.toLowerCase());
  }

  /** A settlement broadcast but not confirmed: the nonce stays reserved, with the transaction recorded. */
  markBroadcast(authorizer: string, nonce: string, txHash: string): void {
    this.db
      .prepare(
        `UPDATE payment_nonces SET tx_hash = ? WHERE authorizer = ? AND nonce = ? AND state = 'reserved'`,
      )
      .run(txHash, authorizer.toLowerCase(), nonce.toLowerCase());
  }

  markSettled(authorizer: string, nonce: string, txHash: string): void {
    this.db
      .prepare(`UPDATE payment_nonces SET state = 'settled', tx_hash = ? WHERE authorizer = ? AND nonce = ?`)
      .run(txHash, authorizer.toLowerCase(), nonce.toLowerCase());
  }
}
