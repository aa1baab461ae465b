/**
 * Corruption checks off the critical path. Opening desk.db checks only what opening reads (the header, the
 * schema, the ledger); `PRAGMA quick_check` reads the whole file (1.7 s at 500 MB), so it runs in a worker thread
 * a while after start and daily, and at start only when damage was seen before. Damage found in the background
 * or by a read at run time is marked beside the file; the next start runs the full check and, finding it,
 * replaces the file with the newest good backup as it always did (open.ts).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { DeskError } from '../base/errors';

const MARKER_SUFFIX = '.damaged';

/** Records that the library file was found damaged, and why; the next open checks it whole. */
export function markDamaged(dbFile: string, reason: string): void {
  try {
    writeFileSync(dbFile + MARKER_SUFFIX, `${reason}\n`, { mode: 0o600 });
  } catch {
    // A disk that cannot take a small file will show the damage again on the next read.
  }
}

/** Why the library was marked damaged, or null when it was not. */
export function damageMarked(dbFile: string): string | null {
  if (!existsSync(dbFile + MARKER_SUFFIX)) return null;
  try {
    return readFileSync(dbFile + MARKER_SUFFIX, 'utf8').trim() || 'damage was found earlier';
  } catch {
    return 'damage was found earlier';
  }
}

export function clearDamageMark(dbFile: string): void {
  rmSync(dbFile + MARKER_SUFFIX, { force: true });
}

const CORRUPTION_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_INDEX']);

/** A SQLite error that says the file is damaged (better-sqlite3's SqliteError carries the code). */
export function isCorruption(error: unknown): error is Error & { code: string } {
  if (!(error instanceof Error) || !('code' in error)) return false;
  return typeof error.code === 'string' && CORRUPTION_CODES.has(error.code);
}

/** The error a read of a damaged library becomes: marked, and said in words with what happens next. */
export function libraryDamaged(dbFile: string, cause: Error): DeskError {
  markDamaged(dbFile, cause.message);
  return new DeskError(
    'library_damaged',
    `The library file is damaged (${cause.message}); the next start sets it aside and puts the newest good backup in its place.`,
    'storage',
    { reason: cause.message },
    { cause },
  );
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db = null;
let result;
try {
  db = new Database(workerData.file, workerData.options);
  const rows = db.pragma('quick_check(10)', { simple: false }).map((row) => String(Object.values(row)[0]));
  result = { ok: rows.length === 1 && rows[0] === 'ok', problems: rows };
} catch (error) {
  result = { ok: false, problems: [String((error && error.message) || error)] };
}
try { db && db.close(); } catch {}
parentPort.postMessage(result);
`;

const checkResultSchema = z.object({ ok: z.boolean(), problems: z.array(z.string()) });

/** `PRAGMA quick_check` over a read-only connection in a worker thread: null when the file is whole. */
export function quickCheckInWorker(file: string, nativeBinding?: string): Promise<string | null> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      module: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      options: { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) },
    },
  });
  // A CLI run that ends first does not wait for the check: the next long run does it.
  worker.unref();
  return new Promise<string | null>((resolve, reject) => {
    worker.once('message', (message: unknown) => {
      const result = checkResultSchema.safeParse(message);
      if (!result.success) reject(new Error('the integrity check answered nonsense'));
      else
        resolve(
          result.data.ok
            ? null
            : `integrity check failed: ${result.data.problems.join('; ').replace(/\s*\n\s*/g, '; ')}`,
        );
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the integrity check stopped (exit ${code})`)));
  }).finally(() => void worker.terminate());
}

export interface IntegrityWatchOptions {
  /** How long after start the first check runs (default 30 s: after the start's own work). */
  firstAfterMs?: number;
  /** How often after that (default daily). */
  everyMs?: number;
  nativeBinding?: string | undefined;
}

/** The background check of a running desk: finds damage, marks it, and says so once. */
export class IntegrityWatch {
  private readonly timers: NodeJS.Timeout[] = [];
  private found: { reason: string; at: string } | null = null;

  constructor(
    private readonly file: string,
    private readonly onDamage: (reason: string) => void,
    private readonly now: () => number,
    private readonly options: IntegrityWatchOptions = {},
  ) {}

  start(): void {
    const first = setTimeout(() => void this.checkNow(), this.options.firstAfterMs ?? 30_000);
    first.unref();
    const every = setInterval(() => void this.checkNow(), this.options.everyMs ?? 24 * 60 * 60 * 1000);
    every.unref();
    this.timers.push(first, every);
  }

  /** Damage found by this run, if any. */
  damage(): { reason: string; at: string } | null {
    return this.found;
  }

  /** One check now; a check that cannot run at all (no worker) says nothing rather than cry wolf. */
  async checkNow(): Promise<string | null> {
    if (this.found) return this.found.reason;
    let problem: string | null;
    try {
      problem = await quickCheckInWorker(this.file, this.options.nativeBinding);
    } catch {
      return null;
    }
    if (problem) this.report(problem);
    return problem;
  }

  /** Damage seen by a read at run time, or by the check. */
  report(reason: string): void {
    if (this.found) return;
    this.found = { reason, at: new Date(this.now()).toISOString() };
    markDamaged(this.file, reason);
    this.onDamage(reason);
  }

  stop(): void {
    for (const timer of this.timers.splice(0)) clearTimeout(timer);
  }
}
