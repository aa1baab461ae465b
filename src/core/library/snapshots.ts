/** The offline library: every purchased snapshot, byte-for-byte, with indexed columns and full-text search. */
import type { Statement } from 'better-sqlite3';
import type { IntelReportSnapshot } from '../../shared/wire';
import type {
  LibraryHandle,
  LibraryIndexing,
  LibraryItem,
  LibraryPage,
  SearchHit,
  SearchView,
  TimelineEntry,
} from '../../shared/rpc';
import type { DeskDb } from '../db/open';
import type { DeskEvents } from '../base/events';
import { libraryPage, listAll, type PageRequest } from './library-page';
import { searchLibrary, type SearchRequest } from './library-search';
import { SearchIndex } from './search-index';
import type { SearchVocabulary } from './search-vocabulary';
import { handleKey } from '../../shared/handle-key';

export interface StoredSnapshot {
  snapshot: IntelReportSnapshot;
  raw: string;
}

interface PutStatements {
  keyOf: Statement<[string, string], { text_id: number }>;
  /** Inserts unless the report is already stored (then changes nothing, and `changes` is 0). */
  insert: Statement;
  update: Statement;
  spentOf: Statement<[string], { spent: number }>;
  name: Statement<[string, string, string]>;
}

export class SnapshotStore {
  /** Words, facts, topics and date order, written just after each purchase commits. */
  readonly searchIndex: SearchIndex;
  /** Prepared once: preparing them on every put cost as much as the insert itself. */
  private statements: PutStatements | null = null;
  /** Bumped by every write here that may change `handles()`: its answer is kept until then. */
  private handlesGeneration = 0;
  private handlesKept: { stamp: string; handles: LibraryHandle[] } | null = null;

  constructor(
    private readonly db: DeskDb,
    private readonly events: DeskEvents | null = null,
    /** What stopped a step of the background indexing pass (see SearchIndex). */
    indexingFailed?: (error: unknown) => void,
    /** A handle's display name on the last shelf fetched, for a handle stored before the next fetch names it. */
    private readonly shelfName: (serviceUrl: string, handle: string) => string | null = () => null,
  ) {
    this.searchIndex = new SearchIndex(db, indexingFailed);
  }

  /** The index's words, for prefixes typed in the Library. */
  get vocabulary(): SearchVocabulary {
    return this.searchIndex.vocabulary;
  }

  private prepared(): PutStatements {
    this.statements ??= {
      keyOf: this.db.prepare('SELECT text_id FROM snapshots WHERE id = ? AND service_url = ?'),
      insert: this.db.prepare(
        `INSERT INTO snapshots (service_url, id, handle, username, created_at, model, post_count, range_from,
           range_to, raw_json, purchase_id, stored_at, spent_atomic)
         VALUES (@serviceUrl, @id, @handle, @username, @createdAt, @model, @postCount, @from, @to, @raw,
           @purchaseId, @storedAt, @spent)
         ON CONFLICT (id, service_url) DO NOTHING`,
      ),
      // A re-stored report keeps its key, purchase and price: what changes is the service's copy of it.
      update: this.db.prepare(
        `UPDATE snapshots SET raw_json = @raw, model = @model, created_at = @createdAt, post_count = @postCount,
           range_from = @from, range_to = @to WHERE text_id = @key`,
      ),
      // Each report's share of what the purchase paid.
      spentOf: this.db.prepare(
        'SELECT CAST(amount AS INTEGER) / MAX(report_count, 1) AS spent FROM purchases WHERE id = ?',
      ),
      name: this.db.prepare(
        `INSERT INTO handle_names (service_url, handle, display_name) VALUES (?, ?, ?)
         ON CONFLICT DO UPDATE SET display_name = excluded.display_name`,
      ),
    };
    return this.statements;
  }

  /**
   * Call inside the caller's transaction: a purchase's snapshots land together with its completion. A report
   * is the service's: the same id from another service is another report and is kept beside it. What search
   * needs beyond the row (its words, facts and topics) is written just after the caller commits (indexPending):
   * written here, those rows tripled the time a purchase's transaction took.
   */
  put(
    serviceUrl: string,
    handle: string,
    entries: StoredSnapshot[],
    purchaseId: string | null,
    storedAt: string,
  ): void {
    const { keyOf, insert, update, spentOf } = this.prepared();
    this.handlesGeneration++;
    const spent = purchaseId === null ? 0 : (spentOf.get(purchaseId)?.spent ?? 0);
    for (const { snapshot, raw } of entries) {
      const range = snapshot.meta.dateRange ?? null;
      const row = {
        serviceUrl,
        id: snapshot.id,
        handle: handleKey(handle),
        username: handle,
        createdAt: snapshot.createdAt,
        model: snapshot.model,
        postCount: snapshot.meta.postCount ?? null,
        from: range?.from ?? null,
        to: range?.to ?? null,
        raw,
        purchaseId,
        storedAt,
        spent,
      };
      // One statement for a new report: the unique key finds a stored copy without a lookup first. Its key is
      // past indexed_up_to, so the indexing pass picks it up.
      const inserted = insert.run(row);
      if (inserted.changes > 0) {
        const filters = {
          createdAt: row.createdAt,
          handle: row.handle,
          model: row.model,
          postCount: row.postCount,
          spent,
        };
        this.searchIndex.hold(Number(inserted.lastInsertRowid), {
          id: snapshot.id,
          serviceUrl,
          snapshot,
          filters,
          chars: raw.length,
        });
        continue;
      }
      const existing = keyOf.get(snapshot.id, serviceUrl);
      if (existing === undefined) continue;
      update.run({ ...row, key: existing.text_id });
      this.searchIndex.restored(existing.text_id, snapshot, raw.length);
    }
    // The shelf fetched before this purchase did not name a handle the library did not hold yet; until the next
    // fetch, the Library would show the bought handle without its name.
    const name = entries.length > 0 ? this.shelfName(serviceUrl, handle) : null;
    if (name !== null) this.prepared().name.run(serviceUrl, handleKey(handle), name);
    if (entries.length > 0) this.events?.changed('library.changed');
    this.searchIndex.schedule();
  }

  /** Whether the indexing pass has yet to reach reports stored here (see SearchIndex.behind). */
  indexBehind(): boolean {
    return this.searchIndex.behind();
  }

  /** Runs the indexing pass over every report stored since it last ran (see SearchIndex). */
  indexPending(max?: number): number {
    return this.searchIndex.catchUp(max);
  }

  /** Ids of the handle's reports owned from this service; another service's reports are not these. */
  ownedIds(serviceUrl: string, handle: string): Set<string> {
    const rows = this.db
      .prepare<[string, string], { id: string }>(
        'SELECT id FROM snapshots WHERE handle = ? AND service_url = ?',
      )
      .all(handleKey(handle), serviceUrl);
    return new Set(rows.map((row) => row.id));
  }

  /** The whole library (or one handle's), newest first. Screens page through it with `page` instead. */
  list(handle?: string): LibraryItem[] {
    // The whole list: whatever the pass has not reached, an upgrade's fill included, is done first.
    while (this.searchIndex.step());
    return listAll(this.db, handle);
  }

  /**
   * Pages in date order come from snapshot_filters. A few reports the pass has not reached (a purchase just
   * stored) are indexed first; a long backlog (an upgrade, a crash before indexing) is not waited for: the
   * page says how far the pass has got, and the pass goes on in the background.
   */
  page(request: PageRequest): LibraryPage {
    this.searchIndex.pageStep();
    const page = libraryPage(this.db, request);
    const indexing = this.searchIndex.progress();
    if (indexing === null) return page;
    this.searchIndex.schedule();
    return { ...page, indexing };
  }

  /**
   * The library's reports were replaced (a backup restored, which left the index to be rebuilt): what this
   * process kept of the old ones goes, and the pass starts over in the background.
   */
  reportsReplaced(): void {
    this.searchIndex.forgetHeld();
    this.searchIndex.vocabulary.forget();
    this.searchIndex.schedule();
  }

  /** How far the indexing pass has got, or null when it is done; starts it in the background if it is behind. */
  indexing(): LibraryIndexing | null {
    const progress = this.searchIndex.progress();
    if (progress !== null) this.searchIndex.schedule();
    return progress;
  }

  /**
   * Every handle with reports in the library, A to Z, with its display name and report count. Counted from
   * the handle index alone; the handle as bought is its newest report's, one row read per handle (reading
   * every report's row took half a second at 100k, and the Library's first rows waited behind it).
   */
  handles(): LibraryHandle[] {
    // Kept until a write here or a commit by another connection (a CLI run on this library): the Shelf and
    // the Library both ask at start, and at 100k reports each answer took 25-40 ms of core's thread.
    const version = this.db.pragma('data_version', { simple: true }) as number;
    const stamp = `${this.handlesGeneration}:${version}`;
    if (this.handlesKept?.stamp === stamp) return this.handlesKept.handles;
    const handles: LibraryHandle[] = this.db
      .prepare<[], LibraryHandle>(
        `WITH counted AS (SELECT handle, COUNT(*) AS reports FROM snapshots GROUP BY handle),
              named AS (SELECT handle, MAX(display_name) AS displayName FROM handle_names GROUP BY handle)
         SELECT c.handle,
           (SELECT s.username FROM snapshots s WHERE s.handle = c.handle ORDER BY s.created_at DESC LIMIT 1)
             AS username,
           n.displayName, c.reports
         FROM counted c LEFT JOIN named n ON n.handle = c.handle ORDER BY c.handle`,
      )
      .all();
    // Inside a transaction the answer may hold writes that roll back.
    this.handlesKept = this.db.inTransaction ? null : { stamp, handles };
    return handles;
  }

  /**
   * Display names from a freshly fetched shelf, kept for the handles the library holds. Only what changed is
   * written: every start fetches the shelf, and rewriting thousands of unchanged names each time held core.
   */
  nameHandles(serviceUrl: string, names: ReadonlyMap<string, string>): void {
    const owned = this.db
      .prepare<[string], string>('SELECT DISTINCT handle FROM snapshots WHERE service_url = ?')
      .pluck()
      .all(serviceUrl);
    const saved = new Map(
      this.db
        .prepare<[string], [string, string]>(
          'SELECT handle, display_name FROM handle_names WHERE service_url = ?',
        )
        .raw()
        .all(serviceUrl),
    );
    const renamed = owned.filter((handle) => {
      const name = names.get(handle);
      return name ? saved.get(handle) !== name : saved.has(handle);
    });
    if (renamed.length === 0) return;
    this.handlesGeneration++;
    const save = this.db.prepare(
      'INSERT OR REPLACE INTO handle_names (service_url, handle, display_name) VALUES (?, ?, ?)',
    );
    const forget = this.db.prepare('DELETE FROM handle_names WHERE service_url = ? AND handle = ?');
    this.db
      .transaction(() => {
        for (const handle of renamed) {
          const name = names.get(handle);
          if (name) save.run(serviceUrl, handle, name);
          else forget.run(serviceUrl, handle);
        }
      })
      .immediate();
  }

  /** A search sees every stored report: whatever the background catch-up has not indexed yet is first. */
  searchPage(request: SearchRequest): SearchView {
    this.indexPending();
    return searchLibrary(this.db, request, (prefix) => this.vocabulary.expand(prefix));
  }

  /** The best `limit` matches of `text` (see searchPage for the syntax). */
  search(text: string, limit = 50): SearchHit[] {
    return this.searchPage({ text, limit, offset: 0 }).hits;
  }

  /**
   * One stored report. Without a service, the id is looked up across services, preferring `preferred` (the
   * service now selected) and then the most recently stored copy.
   */
  raw(
    id: string,
    serviceUrl: string | null,
    preferred: string,
  ): { raw: string; handle: string; serviceUrl: string } | undefined {
    if (serviceUrl !== null) {
      return this.db
        .prepare<[string, string], { raw: string; handle: string; serviceUrl: string }>(
          'SELECT raw_json AS raw, handle, service_url AS serviceUrl FROM snapshots WHERE id = ? AND service_url = ?',
        )
        .get(id, serviceUrl);
    }
    return this.db
      .prepare<[string, string], { raw: string; handle: string; serviceUrl: string }>(
        `SELECT raw_json AS raw, handle, service_url AS serviceUrl FROM snapshots WHERE id = ?
         ORDER BY service_url = ? DESC, stored_at DESC LIMIT 1`,
      )
      .get(id, preferred);
  }

  /**
   * The handle's owned reports from one service, oldest first, with the chain each one's change summary
   * follows. JSON is read only from copies SQLite can parse (a hostile report may nest past its limit).
   */
  timeline(serviceUrl: string, handle: string): TimelineEntry[] {
    const text = (path: string) =>
      `CASE WHEN json_type(raw_json, '${path}') = 'text' THEN json_extract(raw_json, '${path}') END`;
    return this.db
      .prepare<[string, string], TimelineEntry>(
        `SELECT id, created_at AS createdAt, model, post_count AS postCount,
           CASE WHEN json_valid(raw_json) THEN ${text('$.previousReportId')} END AS previousReportId,
           CASE WHEN json_valid(raw_json) THEN COALESCE(${text('$.changeSummary')},
             ${text('$.changeSummary.headline')}, ${text('$.changeSummary.summary')},
             ${text('$.changeSummary.text')}) END AS changeHeadline
         FROM snapshots WHERE handle = ? AND service_url = ?
         ORDER BY created_at ASC`,
      )
      .all(handleKey(handle), serviceUrl);
  }

  /** The handle as it was bought and its display name from the last shelf that named it. */
  handleNames(serviceUrl: string, handle: string): { username: string; displayName: string | null } {
    const row = this.db
      .prepare<[string, string], { username: string | null; displayName: string | null }>(
        `SELECT MAX(s.username) AS username, MAX(n.display_name) AS displayName
         FROM snapshots s LEFT JOIN handle_names n ON n.service_url = s.service_url AND n.handle = s.handle
         WHERE s.service_url = ? AND s.handle = ?`,
      )
      .get(serviceUrl, handleKey(handle));
    return { username: row?.username ?? handle, displayName: row?.displayName ?? null };
  }

  /** The purchase that stored this copy, when one did (a copy from before the ledger kept it has none). */
  purchaseOf(serviceUrl: string, id: string): string | null {
    return (
      this.db
        .prepare<[string, string], { purchaseId: string | null }>(
          'SELECT purchase_id AS purchaseId FROM snapshots WHERE service_url = ? AND id = ?',
        )
        .get(serviceUrl, id)?.purchaseId ?? null
    );
  }
}
