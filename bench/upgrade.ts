/**
 * The first start after upgrading a 100k-report library from before migration 8: the shipped migrations 8 to
 * 10 fill facts, topics and date order from every report's JSON. Before: run whole at start. Now
 * (src/core/db/deferred-fills.ts): the schema at start, the filling in the background in steps; measured are
 * the blocking open, the whole background fill, and the longest stall of the thread it runs on meanwhile.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { APPLICATION_ID, openDeskDb } from '../src/core/db/open';
import { BACKUPS_FOLDER } from '../src/core/db/backups-folder';
import { backupLibraryNow } from '../src/core/db/library-backup';
import { MIGRATIONS } from '../src/core/db/migrations';
import { SnapshotStore } from '../src/core/library/snapshots';
import { fillLibraryFile } from './desk-library';
import { longestStall, round, timeMs, type Section } from './measure';

const REPORTS = Number(process.env['BENCH_UPGRADE_REPORTS'] ?? 100_000);
const FROM_VERSION = 7;
const POLL_MS = 50;

/** The reports of a current library, copied into a library at version 7 (their words count as indexed). */
function version7Copy(current: string, file: string): void {
  const db = new Database(file);
  try {
    for (const sql of MIGRATIONS.slice(0, FROM_VERSION)) db.exec(sql);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${FROM_VERSION}`);
    db.exec(`ATTACH DATABASE '${current.replaceAll("'", "''")}' AS current`);
    db.exec(
      `INSERT INTO snapshots (text_id, service_url, id, handle, username, created_at, model, post_count,
         range_from, range_to, raw_json, purchase_id, stored_at, spent_atomic)
       SELECT text_id, service_url, id, handle, username, created_at, model, post_count, range_from, range_to,
         raw_json, purchase_id, stored_at, spent_atomic FROM current.snapshots ORDER BY text_id;
       UPDATE search_progress SET indexed_up_to = (SELECT MAX(text_id) FROM snapshots) WHERE id = 1;`,
    );
    db.exec('DETACH DATABASE current');
  } finally {
    db.close();
  }
}

/**
 * What the runner did before: the copy into backups/ it still takes, then every shipped entry from version 8
 * on, whole, one transaction each.
 */
function wholeMigrationsMs(file: string): number {
  const db = new Database(file);
  try {
    return timeMs(() => {
      backupLibraryNow(db, path.join(path.dirname(file), BACKUPS_FOLDER), { reason: 'migration' });
      for (const sql of MIGRATIONS.slice(FROM_VERSION)) db.transaction(() => db.exec(sql)).immediate();
    });
  } finally {
    db.close();
  }
}

export const upgradeSection: Section = {
  name: 'upgrade',
  async run() {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-upgrade-'));
    try {
      const current = path.join(dir, 'current.db');
      fillLibraryFile(current, REPORTS);
      const beforeDir = mkdtempSync(path.join(dir, 'before-'));
      const afterDir = mkdtempSync(path.join(dir, 'after-'));
      version7Copy(current, path.join(beforeDir, 'desk.db'));
      copyFileSync(path.join(beforeDir, 'desk.db'), path.join(afterDir, 'desk.db'));
      const wholeMs = wholeMigrationsMs(path.join(beforeDir, 'desk.db'));

      let opened: ReturnType<typeof openDeskDb> | null = null;
      const openMs = timeMs(() => (opened = openDeskDb(path.join(afterDir, 'desk.db'))));
      const db = opened!.db;
      try {
        const store = new SnapshotStore(db);
        const firstPageMs = timeMs(() => store.page({ limit: 200 }));
        const started = performance.now();
        const fill = await longestStall(async () => {
          while (store.indexing() !== null) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        });
        const fillMs = performance.now() - started;
        return {
          reports: REPORTS,
          'from version': FROM_VERSION,
          'before: backup copy, then migrations 8-14 whole (ms, blocking, at start)': round(wholeMs, 0),
          'now: open at start, backup copy and schema (ms, blocking)': round(openMs, 0),
          'now: first Library page during the fill (ms)': round(firstPageMs, 1),
          'now: background fill, 200 reports a step (ms)': round(fillMs, 0),
          'now: longest stall of the thread during the fill (ms)': round(fill.stallMs, 1),
        };
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
