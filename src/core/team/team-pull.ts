/**
 * Pulls what the team published into this desk's library: each report checked against its SHA-256 and read
 * as a snapshot before it is stored, stored with who bought it, and the sequence number moved on in the
 * same SQLite transaction, so a pull cut short resumes where it stopped and never stores a report twice.
 */
import { createHash } from 'node:crypto';
import type { DeskDb } from '../db/open';
import { pauseAutoCheckpoint, withRelaxedDurability } from '../db/relaxed-durability';
import { WalCheckpointer } from '../db/wal-checkpointer';
import { intelReportSnapshotSchema, type IntelReportSnapshot } from '../../shared/wire';
import type { StoredSnapshot } from '../library/snapshots';
import type { PulledReport, TeamAuthority } from './authority';
import type { TeamMembership } from './membership';

/** Where pulled reports go: the local library's store, as a purchase's reports do (it indexes them after). */
export interface PullInto {
  put(
    serviceUrl: string,
    handle: string,
    entries: StoredSnapshot[],
    purchaseId: null,
    storedAt: string,
  ): void;
  /** Whether the library's indexing pass has yet to reach reports stored (see SearchIndex.behind). */
  indexBehind(): boolean;
}

/**
 * Reports fetched at a time. Each batch's text stays alive until its last slice is stored, and the garbage
 * collector's young generation copied it again at every minor collection: at 500, collections of 60–120 ms
 * were the longest stalls of a 100k first pull; at 100, under 10 ms.
 */
const BATCH = 100;
/** Reports stored, or indexed, between two turns of the thread: a window's core answers in between. */
const STEP = 25;

/**
 * Characters of reports stored between two checkpoints of the WAL, each in a turn of its own. SQLite's own
 * comes at 4 MB of WAL, inside a commit; a checkpoint is mostly its two fsyncs, and at 2 MB of reports it
 * took 40–70 ms on a busy disk, at 256 kB 20–35 ms.
 */
const CHECKPOINT_CHARS = 256 * 1024;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function readReport(report: PulledReport): StoredSnapshot | null {
  if (createHash('sha256').update(report.raw, 'utf8').digest('hex') !== report.sha256) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(report.raw);
  } catch {
    return null;
  }
  const snapshot = intelReportSnapshotSchema.safeParse(parsed);
  if (!snapshot.success || snapshot.data.id !== report.reportId) return null;
  return { snapshot: snapshot.data as IntelReportSnapshot, raw: report.raw };
}

export class TeamPull {
  private sinceCheckpoint = 0;
  private checkpointer: WalCheckpointer | null = null;

  constructor(
    private readonly db: DeskDb,
    private readonly authority: TeamAuthority,
    private readonly membership: TeamMembership,
    private readonly library: PullInto,
    private readonly nativeBinding?: string,
  ) {}

  /** Pulls every report published since the last pull; the count stored. Damaged ones are skipped, not stored. */
  async all(onBatch?: (stored: number) => void): Promise<number> {
    // The WAL is checkpointed between slices instead (checkpointed), and SQLite's own comes back afterwards.
    const resume = pauseAutoCheckpoint(this.db);
    const checkpointer = (this.checkpointer = new WalCheckpointer(this.db, this.nativeBinding));
    try {
      return await this.pullAll(onBatch);
    } finally {
      // The last stretch is copied too before SQLite's own checkpoint comes back: left to it, the next commit
      // (perhaps a purchase's) would copy the whole pull on core's thread.
      await checkpointer.request();
      await checkpointer.close();
      this.checkpointer = null;
      resume();
    }
  }

  private async pullAll(onBatch?: (stored: number) => void): Promise<number> {
    let stored = 0;
    for (;;) {
      const after = this.membership.current()?.pulledUpTo ?? 0;
      const batch = await this.authority.pull(after, BATCH);
      if (batch.length === 0) {
        await this.indexed();
        return stored;
      }
      // A step at a time keeps a window's core free during a large first pull. The library's indexing pass,
      // which each store schedules, indexes a step's reports before the next are stored, in turns of its
      // own: a store and an indexing step in one turn held the thread for both, and a pass left behind held
      // every parsed report it had yet to index (the garbage collector's pauses grew with them).
      for (let i = 0; i < batch.length; i += STEP) {
        await this.indexed();
        await this.checkpointed();
        stored += this.store(batch.slice(i, i + STEP));
      }
      onBatch?.(stored);
    }
  }

  /** Resolves in a turn after the one in which the indexing pass caught up with every report stored. */
  private async indexed(): Promise<void> {
    while (this.library.indexBehind()) await nextTurn();
    await nextTurn();
  }

  /**
   * Checkpoints the WAL once the reports stored since the last one pass CHECKPOINT_CHARS, on a thread of its
   * own (db/wal-checkpointer.ts), while the pull goes on storing.
   */
  private async checkpointed(): Promise<void> {
    if (this.sinceCheckpoint < CHECKPOINT_CHARS || !this.checkpointer) return;
    this.sinceCheckpoint = 0;
    void this.checkpointer.request();
    await nextTurn();
  }

  private store(batch: PulledReport[]): number {
    const own = this.db.prepare<[string, string], { purchase_id: string | null }>(
      'SELECT purchase_id FROM snapshots WHERE service_url = ? AND id = ?',
    );
    const boughtBy = this.db.prepare(
      `INSERT INTO team_reports (service_url, id, seq, purchase_id, analyst, desk_id, payer, tx_hash, sha256)
       VALUES (@serviceUrl, @reportId, @seq, @purchaseId, @analyst, @deskId, @payer, @txHash, @sha256)
       ON CONFLICT (service_url, id) DO NOTHING`,
    );
    const storedAt = new Date().toISOString();
    let stored = 0;
    // Lost to a power cut, the slice is fetched again: pulled_up_to moves in the same transaction.
    withRelaxedDurability(
      this.db,
      this.db.transaction(() => {
        for (const report of batch) {
          const entry = readReport(report);
          if (entry === null) continue;
          boughtBy.run(report);
          // This desk's own purchase of the report stays as it is; the team row only says who else has it.
          if (own.get(report.serviceUrl, report.reportId) !== undefined) continue;
          this.library.put(report.serviceUrl, report.handle, [entry], null, storedAt);
          stored++;
          this.sinceCheckpoint += report.raw.length;
        }
        this.membership.pulled(batch[batch.length - 1]!.seq);
      }),
    );
    return stored;
  }
}
