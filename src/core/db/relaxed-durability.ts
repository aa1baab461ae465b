/**
 * Commits that may be lost to a power cut, because what they write is fetched or derived again: a team pull's
 * slice (its `pulled_up_to` moves in the same transaction, so the pull fetches the slice again by sequence) and
 * the indexing pass's steps (`indexed_up_to` likewise). They skip the WAL's fsync at commit
 * (`synchronous = NORMAL`), which on a busy disk held core's thread for tens of milliseconds each. Every other
 * commit, a payment's above all, stays at FULL (open.ts): the setting is put back before this returns, on the same
 * connection, whatever `run` does. A later FULL commit syncs the WAL with every frame before it, so a relaxed
 * commit can be lost only together with every commit after it, never from under one that was kept.
 */
import type { DeskDb } from './desk-db';

/** Runs `run` (which opens and commits its own transaction) with the connection at `synchronous = NORMAL`. */
export function withRelaxedDurability<T>(db: DeskDb, run: () => T): T {
  // Inside a caller's transaction the caller's commit is the one that counts, and it keeps the caller's setting.
  if (db.inTransaction) return run();
  const before = db.pragma('synchronous', { simple: true }) as number;
  db.pragma('synchronous = NORMAL');
  try {
    return run();
  } finally {
    db.pragma(`synchronous = ${before}`);
  }
}

/** Connections whose automatic checkpoint is paused, with how many pauses hold it and the setting to put back. */
const paused = new WeakMap<DeskDb, { holders: number; pages: number }>();

/**
 * Stops SQLite checkpointing the WAL at the end of whichever commit passes its size (then the commit's caller,
 * core's thread, waited for the copy and its fsync too); the caller checkpoints in turns of its own instead.
 * The returned function puts the setting back once every pause on the connection is over: call it in a
 * `finally`, or the WAL grows until the app restarts.
 */
export function pauseAutoCheckpoint(db: DeskDb): () => void {
  const held = paused.get(db) ?? {
    holders: 0,
    pages: db.pragma('wal_autocheckpoint', { simple: true }) as number,
  };
  held.holders++;
  paused.set(db, held);
  db.pragma('wal_autocheckpoint = 0');
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--held.holders > 0) return;
    paused.delete(db);
    if (db.open) db.pragma(`wal_autocheckpoint = ${held.pages}`);
  };
}
