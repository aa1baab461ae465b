/**
 * Commits by other processes on the same desk.db (a CLI purchase, a request the MCP server recorded, another
 * window), told to this desk's windows without a restart. The folder is watched, which costs nothing while no
 * one writes; on a change SQLite's `data_version` says whether another connection committed (this desk's own
 * commits leave it as it was), and only then are the windows told to ask again.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { DeskDb } from './open';
import type { DeskEvents } from '../base/events';

/** Writes come in bursts (a purchase is several commits): one look after the burst is enough. */
const SETTLE_MS = 50;

export class OtherWriters {
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private seen: number;

  constructor(
    private readonly db: DeskDb,
    private readonly events: DeskEvents,
  ) {
    this.seen = this.version();
  }

  private version(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  start(): void {
    if (this.watcher) return;
    const file = path.basename(this.db.name);
    try {
      this.watcher = watch(path.dirname(this.db.name), { persistent: false }, (_event, name) => {
        if (name === null || name.startsWith(file)) this.soon();
      });
    } catch {
      // A folder that cannot be watched (some network disks): the window still sees its own desk's changes.
      return;
    }
    this.watcher.on('error', () => this.stop());
  }

  private soon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.look();
    }, SETTLE_MS);
    this.timer.unref();
  }

  /** Tells the windows when another connection committed since the last look. */
  look(): void {
    if (!this.db.open) return;
    const version = this.version();
    if (version === this.seen) return;
    this.seen = version;
    // Not settings.changed: it makes a window fetch the shelf again, which a purchase elsewhere never needs.
    this.events.changed('purchases.changed');
    this.events.changed('library.changed');
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
