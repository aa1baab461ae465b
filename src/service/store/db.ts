/** The reference service's own SQLite store: handles with their dossier, reports, and used payment nonces. */
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
