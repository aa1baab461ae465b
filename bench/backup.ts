/**
 * Backing up a 100k-report library (decision 0021): the longest event-loop stall of the thread that asks for
 * the copy while core copies desk.db with SQLite's online backup, as core does it (in a worker thread, in
 * steps), in adaptive steps on the same thread, and in one step; the time each takes, what a copy costs on
 * disk, and the one-go VACUUM INTO copy taken before a migration. Target: under 50 ms.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDeskDb } from '../src/core/db/open';
import { SnapshotStore } from '../src/core/library/snapshots';
import {
  backupLibrary,
  backupLibraryNow,
  DEFAULT_KEEP_TOTAL,
  listLibraryBackups,
} from '../src/core/db/library-backup';
import { reportCorpus } from './corpus';
import { longestStall, percentile, round, timeMs, type Section } from './measure';

const REPORTS = 100_000;
const SERVICE = 'http://127.0.0.1:8402';
const STORED_AT = '2026-11-22T00:00:00.000Z';
const MB = 1024 * 1024;

const bin = path.resolve(import.meta.dirname, '..', 'bin', 'intel-desk.mjs');

/** `intel-desk library --limit 1` on the data folder, as a person runs it, offline: the median of five runs. */
function cliLibraryMedian(dataDir: string): number {
  const args = [
    bin,
    'library',
    '--limit',
    '1',
    '--json',
    '--data-dir',
    dataDir,
    '--service',
    'http://127.0.0.1:9',
  ];
  const samples = Array.from({ length: 5 }, () =>
    timeMs(() => execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'ignore'] })),
  );
  return percentile(samples, 50);
}

/** The library, filled in a function of its own so the corpus is garbage before anything is measured. */
function fill(file: string) {
  const { db } = openDeskDb(file);
  const store = new SnapshotStore(db);
  const corpus = reportCorpus(REPORTS);
  for (let i = 0; i < corpus.length; i += 1000) {
    db.transaction(() => {
      for (const { handle, snapshot, raw } of corpus.slice(i, i + 1000))
        store.put(SERVICE, handle, [{ snapshot, raw }], null, STORED_AT);
    })();
  }
  store.indexPending();
  return db;
}

/** What this machine's scheduler alone costs a thread that does nothing (other processes share the cores). */
async function idleStall(ms: number): Promise<number> {
  return (await longestStall(() => new Promise((resolve) => setTimeout(resolve, ms)))).stallMs;
}

export const backupSection: Section = {
  name: 'backup',
  async run() {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-backup-'));
    try {
      const file = path.join(dir, 'desk.db');
      const db = fill(file);
      db.pragma('wal_checkpoint(TRUNCATE)');
      const libraryBytes = statSync(file).size;
      const folder = path.join(dir, 'backups');

      const idle = await idleStall(1500);
      const inWorker = await longestStall(() =>
        backupLibrary(db, folder, { reason: 'manual', keep: { manual: 100 } }),
      );
      const stepped = await longestStall(() =>
        backupLibrary(db, folder, { reason: 'manual', keep: { manual: 100 }, thread: 'same' }),
      );
      const copyBytes = listLibraryBackups(folder)[0]?.bytes ?? 0;
      // The same copy in one step (better-sqlite3's progress asking for every page at once).
      const oneStep = await longestStall(() =>
        db.backup(path.join(dir, 'one-step.db'), { progress: () => 0x7fffffff }),
      );
      const vacuumMs = timeMs(() =>
        backupLibraryNow(db, folder, { reason: 'migration', keep: { migration: 100 } }),
      );
      db.close();
      // Opening the same library as each start does, and the whole-file check it no longer waits for.
      let reopened: ReturnType<typeof openDeskDb> | null = null;
      const openMs = timeMs(() => (reopened = openDeskDb(file)));
      const wholeCheckMs = timeMs(() => reopened!.db.pragma('quick_check'));
      reopened!.db.close();
      const cliLimit1 = cliLibraryMedian(dir);
      const emptyDir = mkdtempSync(path.join(tmpdir(), 'bench-cli-empty-'));
      const cliEmpty = cliLibraryMedian(emptyDir);
      rmSync(emptyDir, { recursive: true, force: true });
      return {
        reports: REPORTS,
        'library size (MB)': round(libraryBytes / MB, 1),
        'idle thread, same length: longest stall (ms)': round(idle, 1),
        'backup, in a worker: longest stall (ms)': round(inWorker.stallMs, 1),
        'backup, in a worker: time (ms)': round(inWorker.ms, 0),
        'backup, stepped on this thread: longest stall (ms)': round(stepped.stallMs, 1),
        'backup, stepped on this thread: time (ms)': round(stepped.ms, 0),
        'backup, one step: longest stall (ms)': round(oneStep.stallMs, 1),
        'backup, one step: time (ms)': round(oneStep.ms, 0),
        'stall ratio (one step / in a worker)': round(oneStep.stallMs / Math.max(inWorker.stallMs, 0.1), 0),
        'one copy on disk (MB)': round(copyBytes / MB, 1),
        [`${DEFAULT_KEEP_TOTAL} copies kept on disk at most (MB)`]: round(
          (DEFAULT_KEEP_TOTAL * copyBytes) / MB,
          0,
        ),
        'before a migration, VACUUM INTO (ms, blocking, at start)': round(vacuumMs, 0),
        'open at start, header/schema/ledger check (ms)': round(openMs, 1),
        'quick_check of the whole file, now in a background worker (ms)': round(wholeCheckMs, 0),
        'open ratio (whole check / open)': round(wholeCheckMs / Math.max(openMs, 0.1), 0),
        'CLI library --limit 1, 100k library (ms, median)': round(cliLimit1, 0),
        'CLI library --limit 1, empty library (ms, median)': round(cliEmpty, 0),
        'CLI ratio (100k / empty; target under 2)': round(cliLimit1 / cliEmpty, 2),
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
