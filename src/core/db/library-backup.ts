/**
 * Copies of desk.db in backups/ (decision 0023): taken with SQLite's online backup while the desk keeps
 * working, in steps sized so no step holds the thread for more than a few milliseconds, written to a
 * .partial file and renamed only once whole, owner-only, and rotated to a bounded number. A copy is judged
 * good by the same health check as desk.db itself before it is ever restored.
 */
import { chmodSync, copyFileSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { z } from 'zod';
import type Database from 'better-sqlite3';
import { createPrivateFile, ensureBackupsFolder, fileStamp } from './backups-folder';

export const backupReasonSchema = z.enum(['purchase', 'daily', 'manual', 'migration', 'restore']);
export type BackupReason = z.infer<typeof backupReasonSchema>;

/**
 * How many library copies of each kind are kept; the oldest of a kind go first, and a kind never pushes out
 * another (decision 0038): a burst of purchases leaves the daily copies alone. Replaced keystores are never
 * rotated away.
 */
export const DEFAULT_KEEP: Readonly<Record<BackupReason, number>> = {
  purchase: 4,
  daily: 7,
  manual: 4,
  migration: 3,
  restore: 3,
};
export type KeepCounts = Partial<Record<BackupReason, number>>;
/** Copies all kinds together keep at most, by default. */
export const DEFAULT_KEEP_TOTAL = Object.values(DEFAULT_KEEP).reduce((sum, n) => sum + n, 0);
/** The time one backup step may hold the thread; the step size adapts to stay near it. */
export const STEP_BUDGET_MS = 8;
/** Pages copied between two syncs of the copy under way (64 MB at SQLite's default 4 KB pages). */
const SYNC_EVERY_PAGES = 16_384;

const NAME = /^desk-(\d{8}T\d{9}Z)-([a-z]+)\.db$/;

export interface LibraryBackup {
  file: string;
  takenAt: string;
  reason: BackupReason;
  bytes: number;
}

function parseName(folder: string, name: string): LibraryBackup | null {
  const match = NAME.exec(name);
  const reason = backupReasonSchema.safeParse(match?.[2]);
  if (!match?.[1] || !reason.success) return null;
  const s = match[1];
  const takenAt = `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}.${s.slice(15, 18)}Z`;
  const file = path.join(folder, name);
  let bytes = 0;
  try {
    bytes = statSync(file).size;
  } catch {
    return null;
  }
  return { file, takenAt, reason: reason.data, bytes };
}

/** The library copies in `folder`, newest first. */
export function listLibraryBackups(folder: string): LibraryBackup[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .map((name) => parseName(folder, name))
    .filter((backup) => backup !== null)
    .sort((a, b) => (a.takenAt < b.takenAt ? 1 : a.takenAt > b.takenAt ? -1 : 0));
}

/**
 * Where a copy is written until whole: named by the process writing it, since several processes on one data
 * folder (the window, CLI runs) may copy at the same moment, as they all do when they upgrade it.
 */
const partialFor = (target: string) => `${target}.${process.pid}.partial`;

/** True for a .partial whose writer is gone: another live process may still be writing one. */
function abandonedPartial(name: string): boolean {
  const writer = /\.(\d+)\.partial$/.exec(name)?.[1];
  if (writer === undefined) return name.endsWith('.partial');
  if (Number(writer) === process.pid) return false;
  try {
    process.kill(Number(writer), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/**
 * The copies rotation removes: of each kind, the oldest past its count (at least one of each is kept). A file
 * in `spare` (the copy being restored from) stays whatever its age and takes one of its kind's places, so a
 * later rotation that no longer spares it finds nothing to remove either.
 */
export function copiesToRotate(
  folder: string,
  keep: KeepCounts = {},
  spare: readonly string[] = [],
): LibraryBackup[] {
  const spared = new Set(spare.map((file) => path.resolve(file)));
  const all = listLibraryBackups(folder);
  const places = new Map<BackupReason, number>();
  for (const reason of backupReasonSchema.options)
    places.set(reason, Math.max(keep[reason] ?? DEFAULT_KEEP[reason], 1));
  for (const backup of all)
    if (spared.has(path.resolve(backup.file)))
      places.set(backup.reason, (places.get(backup.reason) ?? 0) - 1);
  const old: LibraryBackup[] = [];
  for (const backup of all) {
    if (spared.has(path.resolve(backup.file))) continue;
    const left = places.get(backup.reason) ?? 0;
    if (left > 0) places.set(backup.reason, left - 1);
    else old.push(backup);
  }
  return old;
}

/** Removes the oldest library copies of each kind beyond its count, and any .partial a stopped backup left. */
export function rotateLibraryBackups(
  folder: string,
  keep: KeepCounts = {},
  spare: readonly string[] = [],
): void {
  for (const old of copiesToRotate(folder, keep, spare)) rmSync(old.file, { force: true });
  for (const name of readdirSync(folder))
    if (abandonedPartial(name)) rmSync(path.join(folder, name), { force: true });
}

function targetFor(folder: string, reason: BackupReason, at: Date): string {
  let file = path.join(folder, `desk-${fileStamp(at)}-${reason}.db`);
  // Two copies in the same millisecond: the later one moves on by a millisecond rather than overwrite.
  for (let ms = 1; existsSync(file); ms++)
    file = path.join(folder, `desk-${fileStamp(new Date(at.getTime() + ms))}-${reason}.db`);
  return file;
}

export interface BackupOptions {
  reason: BackupReason;
  now?: () => Date;
  /** Copies kept of each kind (default DEFAULT_KEEP). */
  keep?: KeepCounts;
  /** Files rotation must leave, whatever their age (the backup a restore is reading). */
  spare?: readonly string[];
  /** The longest a step may hold the thread, in ms (default STEP_BUDGET_MS), when copying on it. */
  stepBudgetMs?: number;
  /** 'worker' (default): the copy runs in a worker thread; 'same': in steps on this thread. */
  thread?: 'worker' | 'same';
  /** The better-sqlite3 addon for this runtime (Electron's), for the worker's connection. */
  nativeBinding?: string | undefined;
}

/**
 * Copies the open library into `folder` with SQLite's online backup: in a worker thread by default (this
 * thread only waits), or in adaptive steps on this thread; written to a .partial file and renamed once whole.
 */
export async function backupLibrary(
  db: Database.Database,
  folder: string,
  options: BackupOptions,
): Promise<LibraryBackup> {
  ensureBackupsFolder(folder);
  const at = options.now?.() ?? new Date();
  const target = targetFor(folder, options.reason, at);
  const partial = partialFor(target);
  createPrivateFile(partial);
  try {
    const budget = options.stepBudgetMs ?? STEP_BUDGET_MS;
    if (options.thread === 'same' || db.name === ':memory:') await copyInSteps(db, partial, budget);
    else {
      try {
        await copyInWorker(db.name, partial, options.nativeBinding);
      } catch {
        // A runtime where the worker cannot load the addon (a packaged app's archive, say) still gets its
        // copy, in steps on this thread; a cause that is not the worker's fails here again and is reported.
        createPrivateFile(partial);
        await copyInSteps(db, partial, budget);
      }
    }
    if (process.platform !== 'win32') chmodSync(partial, 0o600);
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  await rotateLater(folder, options.keep, options.spare);
  return { file: target, takenAt: at.toISOString(), reason: options.reason, bytes: statSync(target).size };
}

/**
 * The copy in a worker thread with its own read-only connection: the thread that answers RPC (core's, or
 * the host's when core runs in it) only waits for a message. The worker still copies in steps, so its
 * read of the library is released between them and the WAL can be checkpointed meanwhile.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db = null;
Promise.resolve()
  .then(() => {
    db = new Database(workerData.source, workerData.options);
    return db.backup(workerData.target, { progress: () => workerData.pagesPerStep });
  })
  .then(() => ({ ok: true }), (error) => ({ ok: false, message: String((error && error.message) || error) }))
  .then((result) => {
    try { db && db.close(); } catch {}
    parentPort.postMessage(result);
  });
`;

const workerResultSchema = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), message: z.string() }),
]);

function copyInWorker(source: string, target: string, nativeBinding: string | undefined): Promise<void> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      module: createRequire(import.meta.url).resolve('better-sqlite3'),
      source,
      target,
      options: { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) },
      pagesPerStep: 1024,
    },
  });
  return new Promise<void>((resolve, reject) => {
    worker.once('message', (message: unknown) => {
      const result = workerResultSchema.safeParse(message);
      if (result.success && result.data.ok) resolve();
      else
        reject(
          new Error(
            result.success && !result.data.ok ? result.data.message : 'the backup worker answered nonsense',
          ),
        );
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the backup worker stopped (exit ${code})`)));
  }).finally(() => void worker.terminate());
}

/**
 * The copy on this thread, in steps: each step's page count is scaled from the last step's time so a step
 * stays near the budget, and the event loop runs between steps.
 */
async function copyInSteps(db: Database.Database, partial: string, budget: number): Promise<void> {
  let pages = 64;
  let stepStarted = performance.now();
  // SQLite syncs the copy when the last step commits; a 500 MB copy left to that moment blocks the thread
  // for the whole write-back. So the pages written so far are synced along the way, off the thread (an
  // fdatasync in libuv's pool on a descriptor of our own), and the last commit finds little left to flush.
  const handle = await open(partial, 'r');
  let syncing: Promise<void> | null = null;
  let unsynced = 0;
  let lastRemaining: number | null = null;
  try {
    await db.backup(partial, {
      progress: ({ remainingPages }) => {
        unsynced += lastRemaining === null ? 0 : Math.max(lastRemaining - remainingPages, 0);
        lastRemaining = remainingPages;
        if (unsynced >= SYNC_EVERY_PAGES && syncing === null) {
          unsynced = 0;
          syncing = handle.datasync().finally(() => (syncing = null));
        }
        // The time since the last step ended: that step's copy (plus whatever else ran, which only errs small).
        const took = Math.max(performance.now() - stepStarted, 0.05);
        // Scaled toward the budget, but at most doubled per step: a step that hit cached pages says little
        // about the next one.
        pages = Math.max(8, Math.min(pages * 2, Math.floor((pages * budget) / took)));
        // The next step starts once the event loop has had its turn; timing restarts there.
        setImmediate(() => (stepStarted = performance.now()));
        return pages;
      },
    });
    await syncing;
  } finally {
    await Promise.resolve(syncing).catch(() => undefined);
    await handle.close();
  }
}

/** Rotation off the thread: unlinking a 500 MB copy can take a file system tens of milliseconds. */
async function rotateLater(folder: string, keep?: KeepCounts, spare?: readonly string[]): Promise<void> {
  for (const old of copiesToRotate(folder, keep, spare)) await rm(old.file, { force: true });
  rotateLibraryBackups(folder, keep, spare);
}

/**
 * A consistent copy taken in one go (VACUUM INTO), for moments when nothing else runs: just before a
 * migration changes the schema at start. The copy is compacted, so it is also the smallest.
 */
export function backupLibraryNow(
  db: Database.Database,
  folder: string,
  options: BackupOptions,
): LibraryBackup {
  ensureBackupsFolder(folder);
  const at = options.now?.() ?? new Date();
  const target = targetFor(folder, options.reason, at);
  const partial = partialFor(target);
  createPrivateFile(partial);
  try {
    db.prepare('VACUUM INTO ?').run(partial);
    if (process.platform !== 'win32') chmodSync(partial, 0o600);
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  rotateLibraryBackups(folder, options.keep, options.spare);
  return { file: target, takenAt: at.toISOString(), reason: options.reason, bytes: statSync(target).size };
}

/** Copies a backup over `file` (which must not be open), owner-only, its -wal and -shm cleared first. */
export function copyBackupTo(backup: string, file: string): void {
  for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
  const temporary = `${file}.restoring`;
  createPrivateFile(temporary);
  copyFileSync(backup, temporary);
  if (process.platform !== 'win32') chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}
