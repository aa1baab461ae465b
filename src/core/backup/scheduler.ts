/**
 * When the library is copied: shortly after reports are stored (a purchase, a read with the library secret),
 * once a day while the desk runs, and when asked. One copy at a time; close() waits for a copy under way and
 * takes one a purchase is still waiting for, so a CLI `buy` that exits at once still leaves its backup.
 */
import path from 'node:path';
import type { DeskDb } from '../db/open';
import { DeskError } from '../base/errors';
import type { DeskEvents } from '../base/events';
import {
  backupLibrary,
  backupLibraryNow,
  listLibraryBackups,
  type BackupReason,
  type KeepCounts,
  type LibraryBackup,
} from '../db/library-backup';
import { restoreRows, stageBackup, type RestoreOutcome } from './restore-library';
import { RestorePicks } from './restore-picks';

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface BackupScheduleOptions {
  /** How long after the last stored report the copy is taken (default 5 s): a burst of purchases is one copy. */
  afterPurchaseMs?: number;
  /** How often the desk looks whether a day has passed since the last copy (default hourly). */
  dailyCheckMs?: number;
  /** Copies kept of each kind (default DEFAULT_KEEP). */
  keep?: KeepCounts;
  /** The better-sqlite3 addon for this runtime (Electron's), for the backup worker's connection. */
  nativeBinding?: string | undefined;
}

export class LibraryBackups {
  private chain: Promise<unknown> = Promise.resolve();
  private afterPurchase: NodeJS.Timeout | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private stopListening: (() => void) | null = null;
  private closed = false;
  private dailyRunning = false;
  /** What went wrong with the last automatic copy, for the status; an automatic copy never throws. */
  private lastError: string | null = null;
  /** Files a host picked to restore from (restore-picks.ts). */
  readonly picks: RestorePicks;

  constructor(
    private readonly db: DeskDb,
    readonly folder: string,
    private readonly events: DeskEvents,
    private readonly now: () => number,
    private readonly options: BackupScheduleOptions = {},
  ) {
    this.picks = new RestorePicks(folder, now);
  }

  /** Starts the automatic copies: after stored reports, and daily. */
  start(): void {
    this.stopListening = this.events.on((event) => {
      if (event.type === 'library.changed') this.afterReportsStored();
    });
    const daily = setInterval(() => void this.dailyIfDue(), this.options.dailyCheckMs ?? 60 * 60 * 1000);
    daily.unref();
    // A desk started after a day away copies soon after start, once the start's own work is done.
    const first = setTimeout(() => void this.dailyIfDue(), 60_000);
    first.unref();
    this.timers.push(daily, first);
  }

  private afterReportsStored(): void {
    if (this.closed) return;
    if (this.afterPurchase) clearTimeout(this.afterPurchase);
    this.afterPurchase = setTimeout(() => {
      this.afterPurchase = null;
      void this.automatic('purchase');
    }, this.options.afterPurchaseMs ?? 5_000);
  }

  /**
   * Takes the daily copy when the newest daily one is a day old or more (or there is none and the library is
   * not empty). Copies of other kinds do not count: they are rotated apart and cannot stand for a day.
   */
  async dailyIfDue(): Promise<void> {
    // A check while the day's copy is still being written would see no copy yet and take a second one.
    if (this.closed || this.dailyRunning) return;
    const newest = listLibraryBackups(this.folder).find((backup) => backup.reason === 'daily');
    if (newest && this.now() - Date.parse(newest.takenAt) < DAY_MS) return;
    const reports = (this.db.prepare('SELECT COUNT(*) AS n FROM snapshots').get() as { n: number }).n;
    if (!newest && reports === 0) return;
    this.dailyRunning = true;
    try {
      await this.automatic('daily');
    } finally {
      this.dailyRunning = false;
    }
  }

  private async automatic(reason: BackupReason): Promise<void> {
    try {
      await this.backupNow(reason);
      this.lastError = null;
    } catch (error) {
      this.lastError = (error as Error).message;
    }
  }

  /** One copy now, after any under way. */
  backupNow(reason: BackupReason = 'manual'): Promise<LibraryBackup> {
    if (this.closed) return Promise.reject(new DeskError('desk_closed', 'The desk is closing.', 'internal'));
    const run = this.chain.then(
      () => this.copy(reason),
      () => this.copy(reason),
    );
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async copy(reason: BackupReason): Promise<LibraryBackup> {
    try {
      return await backupLibrary(this.db, this.folder, {
        reason,
        now: () => new Date(this.now()),
        ...(this.options.keep ? { keep: this.options.keep } : {}),
        nativeBinding: this.options.nativeBinding,
      });
    } catch (error) {
      throw new DeskError(
        'backup_failed',
        `The library could not be copied into ${this.folder}: ${(error as Error).message}.`,
        'storage',
        {},
        { cause: error },
      );
    }
  }

  last(): LibraryBackup | null {
    return listLibraryBackups(this.folder)[0] ?? null;
  }

  status(): {
    last: LibraryBackup | null;
    copies: LibraryBackup[];
    count: number;
    folder: string;
    lastError: string | null;
  } {
    const all = listLibraryBackups(this.folder);
    return {
      last: all[0] ?? null,
      copies: all,
      count: all.length,
      folder: this.folder,
      lastError: this.lastError,
    };
  }

  /**
   * Puts a backup's library back (restore-library.ts): the file is checked whole and against the schema its
   * version had, staged and brought up to this version apart from desk.db, the library as it is copied into
   * backups/ (never rotating away the file being restored), and then only its rows move into desk.db.
   */
  async restoreFrom(from: string): Promise<RestoreOutcome & { file: string; safetyCopy: LibraryBackup }> {
    const source = path.resolve(from);
    if (source === path.resolve(this.db.name))
      throw new DeskError('backup_unusable', 'That is the library itself, not a backup of it.', 'usage');
    await this.chain.catch(() => undefined);
    // Staged before anything else: whatever happens in backups/ next, the copy being restored is at hand.
    const staged = await stageBackup(source, this.db.name, this.options.nativeBinding);
    try {
      const safetyCopy = backupLibraryNow(this.db, this.folder, {
        reason: 'restore',
        now: () => new Date(this.now()),
        ...(this.options.keep ? { keep: this.options.keep } : {}),
        spare: [source],
      });
      let outcome: RestoreOutcome;
      try {
        outcome = restoreRows(this.db, staged.file);
      } catch (error) {
        throw new DeskError(
          'backup_unusable',
          `${source} cannot be restored: its rows do not fit this library (${(error as Error).message}). Nothing was changed; the library is as it was.`,
          'usage',
          { file: source },
          { cause: error },
        );
      }
      this.events.changed('library.changed');
      if (outcome.purchasesAdded > 0) this.events.changed('purchases.changed');
      // The library now is the backup's: no copy of it is owed (one a purchase before was owed is the
      // safety copy just taken).
      if (this.afterPurchase) clearTimeout(this.afterPurchase);
      this.afterPurchase = null;
      return { ...outcome, file: source, safetyCopy };
    } finally {
      staged.remove();
    }
  }

  /** Stops the timers; a copy a purchase is waiting for is taken now, and one under way is waited for. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.stopListening?.();
    const owed = this.afterPurchase !== null;
    if (this.afterPurchase) clearTimeout(this.afterPurchase);
    this.afterPurchase = null;
    if (owed) await this.automatic('purchase');
    this.closed = true;
    await this.chain;
  }
}
