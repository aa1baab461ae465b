/**
 * Opens the app database: WAL, versioned migrations, and a health check. A file that is corrupt or belongs to
 * another program is moved aside (never deleted) and a fresh database is started; the caller reports it. The
 * check at open reads what opening needs; the whole-file check runs in the background (integrity.ts), and here
 * only when damage was marked before.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, renameSync, rmSync } from 'node:fs';
import { chmodIfPresent } from '../base/owner-only';
import path from 'node:path';
import { DeskError } from '../base/errors';
import { MIGRATIONS } from './migrations';
import { migrationToRun } from './deferred-fills';
import { BACKUPS_FOLDER } from './backups-folder';
import { backupLibraryNow, copyBackupTo, listLibraryBackups } from './library-backup';
import { clearDamageMark, damageMarked } from './integrity';
import { foreignSchema } from './schema-check';
import type { DeskDb } from './desk-db';

export type { DeskDb } from './desk-db';

/** "IDSK" in ASCII: marks the file as Intel Desk's so a foreign SQLite file is not mistaken for ours. */
export const APPLICATION_ID = 0x4944534b;

/** A damaged desk.db replaced at start by the newest backup that passed the health check. */
export interface RestoredFrom {
  file: string;
  takenAt: string;
  reports: number;
}

export interface OpenedDb {
  db: DeskDb;
  /** Where a damaged or foreign file was moved, when that happened during this open. */
  movedAside: { path: string; reason: string; restored?: RestoredFrom } | null;
}

/**
 * Why the file cannot serve as the library, or null. `whole`: SQLite's quick_check over every page, which costs
 * a read of the file; otherwise the header, the schema and the ledger, which every start reads anyway.
 */
function problemWith(db: DeskDb, whole: boolean): string | null {
  if (whole) {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') return `integrity check failed: ${String(check).replace(/\s*\n\s*/g, '; ')}`;
  }
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  const tables = (
    db.prepare(`SELECT COUNT(*) AS n FROM sqlite_schema WHERE type = 'table'`).get() as { n: number }
  ).n;
  if (applicationId !== APPLICATION_ID && (tables > 0 || version > 0))
    return 'the file belongs to another program';
  if (version > MIGRATIONS.length) return `the file was written by a newer Intel Desk (schema ${version})`;
  const ledger = db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'purchases'`).get();
  if (ledger) db.prepare('SELECT COUNT(*) FROM purchases').get();
  return null;
}

/**
 * The library and purchase history are the owner's alone: the file exists 0600 before SQLite opens it, and
 * SQLite gives its -wal and -shm files the database file's mode.
 */
function ownerOnly(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const suffix of ['', '-wal', '-shm']) chmodIfPresent(file + suffix, 0o600);
}

/**
 * Where the compiled better-sqlite3 addon is when it is not the one beside the package: Electron loads a
 * build for its own ABI (see scripts/native-abi.ts), plain Node keeps the default.
 */
export interface OpenDbOptions {
  nativeBinding?: string | undefined;
}

const databaseOptions = (options: OpenDbOptions): Database.Options =>
  options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};

function openChecked(
  file: string,
  options: OpenDbOptions,
  whole: boolean,
): { db: DeskDb | null; reason: string | null } {
  let db: DeskDb | null = null;
  try {
    ownerOnly(file);
    db = new Database(file, databaseOptions(options));
    const reason = problemWith(db, whole);
    if (reason) {
      db.close();
      return { db: null, reason };
    }
    return { db, reason: null };
  } catch (error) {
    db?.close();
    return { db: null, reason: `the file cannot be read as a database (${(error as Error).message})` };
  }
}

const backupsOf = (file: string) => path.join(path.dirname(file), BACKUPS_FOLDER);

/**
 * Brings the schema up to date. A library that already holds a schema is copied into backups/ first: a
 * migration that fails midway, or a new version that must be left, never costs the library. A backup being
 * restored is migrated in a working copy of its own (`backupFirst: false`): the backup itself is the copy.
 */
export function migrate(db: DeskDb, options: { backupFirst?: boolean } = {}): void {
  // First: a second process switching a new file to WAL while the first migrates it waits instead of failing.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  const current = db.pragma('user_version', { simple: true }) as number;
  if (options.backupFirst !== false && current > 0 && current < MIGRATIONS.length && db.name !== ':memory:')
    backupLibraryNow(db, backupsOf(db.name), { reason: 'migration' });
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      // Two processes opening a new library at once (the app and a CLI run): the one that waited for the
      // write lock finds the step taken and skips it, instead of adding a column twice.
      if ((db.pragma('user_version', { simple: true }) as number) > version) return;
      db.exec(migrationToRun(db, version + 1, MIGRATIONS[version] ?? ''));
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}

/**
 * Loads the addon before desk.db is touched: an addon built for another ABI ("compiled against a different
 * Node.js version") or a missing one must stop the start with that reason, never pass for a damaged file
 * that gets moved aside.
 */
function loadSqlite(options: OpenDbOptions): void {
  try {
    new Database(':memory:', databaseOptions(options)).close();
  } catch (error) {
    throw new DeskError(
      'sqlite_unavailable',
      `SQLite cannot be loaded in this runtime (${(error as Error).message}); reinstall Intel Desk, or run \`npm start\` again to rebuild it for Electron.`,
      'storage',
      options.nativeBinding ? { nativeBinding: options.nativeBinding } : {},
      { cause: error },
    );
  }
}

export function openDeskDb(
  file: string,
  now: () => Date = () => new Date(),
  options: OpenDbOptions = {},
): OpenedDb {
  loadSqlite(options);
  const marked = damageMarked(file);
  const first = openChecked(file, options, marked !== null);
  if (first.db) {
    // Damage once seen and not found by the whole check: a read error that has passed (a disk hiccup).
    if (marked !== null) clearDamageMark(file);
    migrate(first.db);
    return { db: first.db, movedAside: null };
  }
  clearDamageMark(file);
  const aside = `${file}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, aside);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  }
  const movedAside = { path: aside, reason: first.reason ?? 'unknown' };
  const restored = restoreNewestGood(file, options);
  if (restored) return { db: restored.db, movedAside: { ...movedAside, restored: restored.from } };
  // The damaged file is aside; whatever is here now is a copy that did not take.
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  ownerOnly(file);
  const db = new Database(file, databaseOptions(options));
  migrate(db);
  return { db, movedAside };
}

/** Whether the file's schema is not what the migrations made at its version (schema-check.ts). */
function schemaIsForeign(file: string, options: OpenDbOptions): boolean {
  const db = new Database(file, { ...databaseOptions(options), readonly: true, fileMustExist: true });
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    return foreignSchema(db, version, options.nativeBinding).length > 0;
  } finally {
    db.close();
  }
}

/** Whether a library file would open as desk.db: null when it would, else why not. */
export function libraryFileProblem(file: string, options: OpenDbOptions = {}): string | null {
  let db: DeskDb | null = null;
  try {
    db = new Database(file, { ...databaseOptions(options), readonly: true, fileMustExist: true });
    // A file about to replace the library is read whole first: nothing else would look at it before use.
    const problem = problemWith(db, true);
    if (problem) return problem;
    if ((db.pragma('user_version', { simple: true }) as number) === 0)
      return 'the file holds no Intel Desk library';
    return null;
  } catch (error) {
    return `the file cannot be read as a database (${(error as Error).message})`;
  } finally {
    db?.close();
  }
}

/**
 * Puts the newest backup that passes the health check, with the schema the migrations made, in place of a
 * damaged desk.db (already moved aside) and opens it; null when there is none, and the library then starts empty as before.
 */
function restoreNewestGood(file: string, options: OpenDbOptions): { db: DeskDb; from: RestoredFrom } | null {
  for (const backup of listLibraryBackups(backupsOf(file))) {
    if (libraryFileProblem(backup.file, options) !== null || schemaIsForeign(backup.file, options)) continue;
    try {
      copyBackupTo(backup.file, file);
      const opened = openChecked(file, options, false);
      if (!opened.db) continue;
      migrate(opened.db);
      const reports = (opened.db.prepare('SELECT COUNT(*) AS n FROM snapshots').get() as { n: number }).n;
      return { db: opened.db, from: { file: backup.file, takenAt: backup.takenAt, reports } };
    } catch {
      // This copy would not take (a disk error, say): the next older one is tried.
    }
  }
  return null;
}
