/**
 * Room on disk for what a purchase will store. Checked before anything is signed: a paid answer that cannot
 * be written is money spent on nothing the person can read. And when a write still fails after the payment
 * (the disk filled meanwhile), the answer the ledger already kept (response_json) is not dropped: the
 * purchase is held in doubt and stored by the next reconciliation.
 */
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { DeskDb } from '../db/open';
import { refused } from '../base/errors';
import { plural } from '../../shared/words';
import type { PurchaseLedger } from '../ledger/purchases';

/** Assumed size of one report when the library holds none to measure. */
const DEFAULT_REPORT_BYTES = 256 * 1024;
/**
 * An answer lands on disk about four times over: the raw answer in the ledger, each report's row, its
 * search index and facts, and the WAL frames of all of it until a checkpoint.
 */
const STORE_FACTOR = 4;
/** Room kept free beyond that: SQLite's journals, a checkpoint, and the rest of the system. */
const MARGIN_BYTES = 32 * 1024 * 1024;

const MB = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The size of a report as the library stores them: the mean of the last few stored (a bounded read). */
function reportBytes(db: DeskDb): number {
  const row = db
    .prepare<[], { mean: number | null }>(
      `SELECT AVG(LENGTH(CAST(raw_json AS BLOB))) AS mean
       FROM (SELECT raw_json FROM snapshots ORDER BY text_id DESC LIMIT 32)`,
    )
    .get();
  return Math.max(row?.mean ?? 0, DEFAULT_REPORT_BYTES);
}

/** What storing `reportCount` reports needs free in the data folder, margin included. */
function bytesNeeded(db: DeskDb, reportCount: number): number {
  return Math.ceil(reportBytes(db) * Math.max(reportCount, 1) * STORE_FACTOR) + MARGIN_BYTES;
}

/** Refuses, before signing, a purchase whose answer the data folder has no room for. */
export async function requireRoomToStore(db: DeskDb, reportCount: number): Promise<void> {
  const folder = path.dirname(db.name);
  const stats = await statfs(folder);
  const free = Number(stats.bavail) * Number(stats.bsize);
  const needed = bytesNeeded(db, reportCount);
  if (free >= needed) return;
  throw refused(
    'disk_full',
    `Not enough free disk space to store this purchase: ${folder} has ${MB(free)} free, and ${plural(reportCount, 'report')} need about ${MB(needed)} with room to spare. Free some space and buy again; nothing was signed.`,
    { free, needed },
  );
}

/** Whether an error is the disk (or the file system's quota) being full: SQLite's or Node's. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * Runs the store of a paid answer; when the disk is full, holds the purchase in doubt (the answer stays in
 * the ledger, kept before delivery) instead of failing it, and reconciliation stores it later.
 */
export function keepWhenDiskFull<T>(
  ledger: PurchaseLedger,
  purchaseId: string,
  store: () => T,
): T | { ok: false; message: string } {
  try {
    return store();
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    const message =
      'The reports were paid for and received, but the disk is full, so they could not be stored yet. The answer is kept; Intel Desk stores it on the next check once there is room, and never pays again for it.';
    try {
      ledger.setState(purchaseId, 'in_doubt', {
        error: message,
        waiting: { kind: 'storage', summary: 'Waiting for free disk space to store a paid answer.' },
      });
    } catch {
      // Not even this row fits: it stays as it was (sent, with the answer kept), which reconciliation
      // delivers just the same.
    }
    return { ok: false, message };
  }
}
