/**
 * Opens the app database: WAL, versioned migrations, and a health check. A file that is corrupt or belongs to
 * another program is moved aside (never deleted) and a fresh database is started; the caller reports it.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, openSync, renameSync } from 'node:fs';
import { DeskError } from '../errors';
import { MIGRATIONS } from './migrations';

export type DeskDb = Database.Database;

/** "IDSK" in ASCII: marks the file as Intel Desk's so a foreign SQLite file is not mistaken for ours. */
export const APPLICATION_ID = 0x4944534b;

export interface OpenedDb {
  db: DeskDb;
  /** Where a damaged or foreign file was moved, when that happened during this open. */
  movedAside: { path: string; reason: string } | null;
}

function problemWith(db: DeskDb): string | null {
  const check = db.pragma('quick_check', { simple: true });
  if (check !== 'ok') return `integrity check failed: ${String(check)}`;
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  const tables = (
    db.prepare(`SELECT COUNT(*) AS n FROM sqlite_schema WHERE type = 'table'`).get() as { n: number }
  ).n;
  if (applicationId !== APPLICATION_ID && (tables > 0 || version > 0))
    return 'the file belongs to another program';
  if (version > MIGRATIONS.length) return `the file was written by a newer Intel Desk (schema ${version})`;
  return null;
}

/**
 * The library and purchase history are the owner's alone: the file exists 0600 before SQLite opens it, and
 * SQLite gives its -wal and -shm files the database file's mode.
 */
function ownerOnly(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  if (process.platform === 'win32') return;
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) chmodSync(file + suffix, 0o600);
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

function openChecked(file: string, options: OpenDbOptions): { db: DeskDb | null; reason: string | null } {
  let db: DeskDb | null = null;
  try {
    ownerOnly(file);
    db = new Database(file, databaseOptions(options));
    const reason = problemWith(db);
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

function migrate(db: DeskDb): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version] ?? '');
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${version + 1}`);
    })();
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
  const first = openChecked(file, options);
  if (first.db) {
    migrate(first.db);
    return { db: first.db, movedAside: null };
  }
  const aside = `${file}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, aside);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  }
  ownerOnly(file);
  const db = new Database(file, databaseOptions(options));
  migrate(db);
  return { db, movedAside: { path: aside, reason: first.reason ?? 'unknown' } };
}
