/**
 * The reference service's own SQLite store: handles with their dossier, reports, used payment nonces, paid
 * answers kept by payment id, and settled purchases a wallet may download again after signing in.
 */
import Database from 'better-sqlite3';

export type ServiceDb = Database.Database;

const migrations: string[] = [
  `CREATE TABLE handles (
     handle_key TEXT PRIMARY KEY,
     username TEXT NOT NULL,
     display_name TEXT NOT NULL,
     avatar_url TEXT NOT NULL,
     followers INTEGER NOT NULL,
     post_count INTEGER NOT NULL,
     gathered_at TEXT NOT NULL,
     affiliation_label TEXT,
     affiliation_badge_url TEXT,
     profile_json TEXT,
     posts_json TEXT NOT NULL DEFAULT '[]',
     edges_json TEXT NOT NULL DEFAULT '[]'
   );
   CREATE TABLE reports (
     id TEXT PRIMARY KEY,
     handle_key TEXT NOT NULL REFERENCES handles(handle_key) ON DELETE CASCADE,
     created_at TEXT NOT NULL,
     model TEXT NOT NULL,
     post_count INTEGER NOT NULL,
     range_from TEXT,
     range_to TEXT,
     body_json TEXT NOT NULL
   );
   CREATE INDEX reports_by_handle ON reports(handle_key, created_at DESC);
   CREATE TABLE payment_nonces (
     authorizer TEXT NOT NULL,
     nonce TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('reserved', 'settled', 'failed')),
     amount TEXT NOT NULL,
     resource TEXT NOT NULL,
     tx_hash TEXT,
     created_at TEXT NOT NULL,
     PRIMARY KEY (authorizer, nonce)
   );`,
  // 2: paid answers kept by the payment-identifier the client sent (x402 extension), so the identical payment
  // sent again gets its answer back instead of a second settlement. A row is written (answer NULL) before the
  // payment settles, so a second payment under the same id is refused even while the first is under way.
  `CREATE TABLE paid_answers (
     payment_id TEXT PRIMARY KEY,
     payer TEXT NOT NULL,
     nonce TEXT NOT NULL,
     payload_sha256 TEXT NOT NULL,
     resource TEXT NOT NULL,
     body TEXT,
     payment_response TEXT,
     created_at TEXT NOT NULL,
     keep_until INTEGER NOT NULL
   );
   CREATE INDEX paid_answers_by_expiry ON paid_answers(keep_until);`,
  // 3: every settled purchase with its answer as sent, kept for good: a wallet that signs in with x (SIWx) gets
  // what it paid for again, free. A sign-in records the wallet that used its nonce (the nonce itself carries its
  // route and expiry under the service's MAC).
  `CREATE TABLE settled_purchases (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     payer TEXT NOT NULL,
     nonce TEXT NOT NULL,
     resource TEXT NOT NULL,
     username TEXT NOT NULL,
     report_count INTEGER NOT NULL,
     amount TEXT NOT NULL,
     pay_to TEXT NOT NULL,
     network TEXT NOT NULL,
     asset TEXT NOT NULL,
     valid_after TEXT NOT NULL,
     valid_before TEXT NOT NULL,
     tx_hash TEXT NOT NULL,
     settled_at TEXT NOT NULL,
     body TEXT NOT NULL,
     UNIQUE (payer, nonce)
   );
   CREATE INDEX settled_purchases_by_payer ON settled_purchases(payer, seq);
   CREATE TABLE sign_in_nonces (
     nonce TEXT PRIMARY KEY,
     path TEXT NOT NULL,
     expires_at INTEGER NOT NULL,
     address TEXT
   );
   CREATE INDEX sign_in_nonces_by_expiry ON sign_in_nonces(expires_at);`,
];

export function openServiceDb(file: string): ServiceDb {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    db.close();
    throw new Error(
      `${file} has schema version ${current}, newer than this service knows (${migrations.length})`,
    );
  }
  for (let version = current; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version] ?? '');
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return db;
}
