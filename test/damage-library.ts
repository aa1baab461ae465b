/**
 * Damage as a disk does it: one leaf page of the reports table overwritten in a real desk.db, far from the
 * header and the ledger, which a start no longer reads whole.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';

/** `last` for a library open elsewhere (its WAL is checkpointed first), `middle` for one deep in the table. */
export function damageReportsPage(file: string, which: 'middle' | 'last'): void {
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const leaves = db
    .prepare<[], { pageno: number }>(
      `SELECT pageno FROM dbstat WHERE name = 'snapshots' AND pagetype = 'leaf' ORDER BY pageno`,
    )
    .all();
  db.close();
  const page = (which === 'last' ? leaves.at(-1) : leaves[Math.floor(leaves.length / 2)])!.pageno;
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (page - 1) * pageSize);
  closeSync(fd);
}
