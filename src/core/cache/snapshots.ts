/** The offline library: every purchased snapshot, byte-for-byte, with indexed columns and full-text search. */
import type { Statement } from 'better-sqlite3';
import type { IntelReportSnapshot } from '../../shared/wire';
import type {
  LibraryHandle,
  LibraryItem,
  LibraryPage,
  SearchHit,
  SearchView,
  TimelineEntry,
} from '../../shared/rpc';
import type { DeskDb } from '../db/open';
import type { DeskEvents } from '../events';
import { libraryPage, listAll, type PageRequest } from './library-page';
import { searchLibrary, type SearchRequest } from './library-search';
import { reportFacts } from './report-facts';

export interface StoredSnapshot {
  snapshot: IntelReportSnapshot;
  raw: string;
}

/**
 * The text a report is found by: every string of the narrative and change summary, in document order, cut at
 * MAX_INDEXED_CHARS so one oversized report cannot grow the index without bound. Iterative: a paid snapshot
 * nested thousands of levels deep must still be stored and indexed, never overflow the stack after payment.
 */
export const MAX_INDEXED_CHARS = 64 * 1024;

export function searchableText(snapshot: Pick<IntelReportSnapshot, 'changeSummary' | 'narrative'>): string {
  const parts: string[] = [];
  let length = 0;
  const pending: unknown[] = [snapshot.changeSummary, snapshot.narrative];
  while (pending.length > 0 && length < MAX_INDEXED_CHARS) {
    const value = pending.pop();
    if (typeof value === 'string') {
      parts.push(value);
      length += value.length + 1;
    } else if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) pending.push(value[i]);
    else if (value && typeof value === 'object') pending.push(...Object.values(value).reverse());
  }
  const text = parts.join('\n');
  return text.length > MAX_INDEXED_CHARS ? text.slice(0, MAX_INDEXED_CHARS) : text;
}

interface PutStatements {
  keyOf: Statement<[string, string], { text_id: number }>;
  /** Inserts unless the report is already stored (then changes nothing, and `changes` is 0). */
  insert: Statement;
  update: Statement;
  removeText: Statement<[number]>;
  addText: Statement<[number | bigint, string]>;
  indexedUpTo: Statement<[], { n: number }>;
  pending: Statement<[number, number], { key: number; id: string; serviceUrl: string }>;
  rawOf: Statement<[number], { raw: string }>;
  putFilters: Statement<[number | bigint]>;
  markIndexed: Statement<[number]>;
  putFacts: Statement;
  removeTopics: Statement<[number | bigint]>;
  addTopic: Statement<[string, number | bigint]>;
}

/** Reports indexed per step of the background catch-up: a few milliseconds, so calls in between stay quick. */
const INDEX_STEP = 200;

/**
 * Reports stored but not yet indexed, kept from the put so indexing need not parse the stored JSON again (the
 * parse was 40% of indexing). Bounded by the stored JSON's length: past this many characters, or after a
 * restart, indexing parses the stored report instead, which gives the same text and facts.
 */
const MAX_HELD_JSON_CHARS = 32 * 1024 * 1024;

type Indexable = Pick<IntelReportSnapshot, 'changeSummary' | 'narrative' | 'analytics'>;

function parsedRaw(raw: string | undefined): Indexable | null {
  if (raw === undefined) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<IntelReportSnapshot> | null;
    return parsed && typeof parsed === 'object'
      ? {
          changeSummary: parsed.changeSummary,
          narrative: parsed.narrative ?? {},
          analytics: parsed.analytics ?? {},
        }
      : null;
  } catch {
    return null;
  }
}

interface Held {
  id: string;
  serviceUrl: string;
  snapshot: Indexable;
  chars: number;
}

export class SnapshotStore {
  constructor(
    private readonly db: DeskDb,
    private readonly events: DeskEvents | null = null,
  ) {}
  /** Prepared once: preparing them on every put cost as much as the insert itself. */
  private statements: PutStatements | null = null;
  /** Keyed by the row's key, and kept with its report id: a rolled-back put may leave its key to another. */
  private readonly held = new Map<number, Held>();
  private heldChars = 0;

  private prepared(): PutStatements {
    this.statements ??= {
      keyOf: this.db.prepare('SELECT text_id FROM snapshots WHERE id = ? AND service_url = ?'),
      insert: this.db.prepare(
        `INSERT INTO snapshots (service_url, id, handle, username, created_at, model, post_count, range_from,
           range_to, raw_json, purchase_id, stored_at, spent_atomic)
         VALUES (@serviceUrl, @id, @handle, @username, @createdAt, @model, @postCount, @from, @to, @raw,
           @purchaseId, @storedAt,
           COALESCE((SELECT CAST(amount AS INTEGER) / MAX(report_count, 1) FROM purchases WHERE id = @purchaseId), 0))
         ON CONFLICT (id, service_url) DO NOTHING`,
      ),
      // A re-stored report keeps its key, purchase and price: what changes is the service's copy of it.
      update: this.db.prepare(
        `UPDATE snapshots SET raw_json = @raw, model = @model, created_at = @createdAt, post_count = @postCount,
           range_from = @from, range_to = @to WHERE text_id = @key`,
      ),
      removeText: this.db.prepare('DELETE FROM snapshot_search WHERE rowid = ?'),
      addText: this.db.prepare('INSERT INTO snapshot_search (rowid, body) VALUES (?, ?)'),
      indexedUpTo: this.db.prepare('SELECT indexed_up_to AS n FROM search_progress WHERE id = 1'),
      // Without the JSON: most pending reports are held from their put, and reading it walks its overflow pages.
      pending: this.db.prepare(
        `SELECT text_id AS key, id, service_url AS serviceUrl FROM snapshots WHERE text_id > ? ORDER BY text_id LIMIT ?`,
      ),
      rawOf: this.db.prepare('SELECT raw_json AS raw FROM snapshots WHERE text_id = ?'),
      putFilters: this.db.prepare(
        `INSERT OR REPLACE INTO snapshot_filters (created_at, text_id, handle, model, post_count, spent_atomic)
         SELECT created_at, text_id, handle, model, post_count, spent_atomic FROM snapshots WHERE text_id = ?`,
      ),
      markIndexed: this.db.prepare('UPDATE search_progress SET indexed_up_to = ? WHERE id = 1'),
      putFacts: this.db.prepare(
        `INSERT OR REPLACE INTO snapshot_facts (text_id, sentiment, likes, reposts, replies)
         VALUES (@key, @sentiment, @likes, @reposts, @replies)`,
      ),
      removeTopics: this.db.prepare('DELETE FROM snapshot_topics WHERE text_id = ?'),
      addTopic: this.db.prepare('INSERT OR IGNORE INTO snapshot_topics (topic, text_id) VALUES (?, ?)'),
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
    const { keyOf, insert, update, indexedUpTo } = this.prepared();
    for (const { snapshot, raw } of entries) {
      const range = snapshot.meta.dateRange ?? null;
      const row = {
        serviceUrl,
        id: snapshot.id,
        handle: handle.toLowerCase(),
        username: handle,
        createdAt: snapshot.createdAt,
        model: snapshot.model,
        postCount: snapshot.meta.postCount ?? null,
        from: range?.from ?? null,
        to: range?.to ?? null,
        raw,
        purchaseId,
        storedAt,
      };
      // One statement for a new report: the unique key finds a stored copy without a lookup first. Its key is
      // past indexed_up_to, so the indexing pass picks it up.
      const inserted = insert.run(row);
      if (inserted.changes > 0) {
        this.hold(Number(inserted.lastInsertRowid), {
          id: snapshot.id,
          serviceUrl,
          snapshot,
          chars: raw.length,
        });
        continue;
      }
      const existing = keyOf.get(snapshot.id, serviceUrl);
      if (existing === undefined) continue;
      update.run({ ...row, key: existing.text_id });
      // Not yet indexed: indexing reads the stored report, whichever copy the caller's transaction leaves.
      this.drop(existing.text_id);
      if (existing.text_id <= (indexedUpTo.get()?.n ?? 0)) this.index(existing.text_id, snapshot, true);
    }
    if (entries.length > 0) this.events?.changed('library.changed');
    this.scheduleIndexing();
  }

  /**
   * What finds one report beyond its row: its words, facts, topics and place in date order, under its key.
   * `again` replaces what an earlier copy left.
   */
  private index(key: number, snapshot: Indexable | null, again: boolean): void {
    const { removeText, addText, putFacts, removeTopics, addTopic, putFilters } = this.prepared();
    if (again) {
      removeText.run(key);
      removeTopics.run(key);
    }
    addText.run(key, snapshot ? searchableText(snapshot) : '');
    const { topics, ...facts } = reportFacts(snapshot ?? { analytics: {} });
    putFacts.run({ key, ...facts });
    for (const topic of topics) addTopic.run(topic, key);
    putFilters.run(key);
  }

  private hold(key: number, held: Held): void {
    this.drop(key);
    if (this.heldChars + held.chars > MAX_HELD_JSON_CHARS) return;
    this.held.set(key, held);
    this.heldChars += held.chars;
  }

  private drop(key: number): void {
    const held = this.held.get(key);
    if (held === undefined) return;
    this.held.delete(key);
    this.heldChars -= held.chars;
  }

  /** The snapshot kept from the put of this very report, if any. */
  private take(row: { key: number; id: string; serviceUrl: string }): Indexable | undefined {
    const held = this.held.get(row.key);
    this.drop(row.key);
    return held && held.id === row.id && held.serviceUrl === row.serviceUrl ? held.snapshot : undefined;
  }

  private indexingScheduled = false;

  /** Indexes new reports in steps once the current call is done, so a purchase never waits for it. */
  scheduleIndexing(): void {
    if (this.indexingScheduled) return;
    this.indexingScheduled = true;
    setImmediate(() => {
      this.indexingScheduled = false;
      if (!this.db.open) return;
      if (this.indexPending(INDEX_STEP) === INDEX_STEP) this.scheduleIndexing();
    });
  }

  /**
   * Indexes the reports stored since the last call (see index), at most `max` of them, in
   * one transaction; returns how many. Keys only grow (reports are never deleted), so "up to" is exact.
   */
  indexPending(max = Number.MAX_SAFE_INTEGER): number {
    const { indexedUpTo, pending, rawOf, markIndexed } = this.prepared();
    return this.db
      .transaction(() => {
        const rows = pending.all(indexedUpTo.get()?.n ?? 0, max);
        for (const row of rows)
          this.index(row.key, this.take(row) ?? parsedRaw(rawOf.get(row.key)?.raw), false);
        const last = rows.at(-1);
        if (last) markIndexed.run(last.key);
        return rows.length;
      })
      .immediate();
  }

  /** Ids of the handle's reports owned from this service; another service's reports are not these. */
  ownedIds(serviceUrl: string, handle: string): Set<string> {
    const rows = this.db
      .prepare<[string, string], { id: string }>(
        'SELECT id FROM snapshots WHERE handle = ? AND service_url = ?',
      )
      .all(handle.toLowerCase(), serviceUrl);
    return new Set(rows.map((row) => row.id));
  }

  /** The whole library (or one handle's), newest first. Screens page through it with `page` instead. */
  list(handle?: string): LibraryItem[] {
    this.indexPending();
    return listAll(this.db, handle);
  }

  /** Pages in date order come from snapshot_filters: whatever the indexing pass has not reached is first. */
  page(request: PageRequest): LibraryPage {
    this.indexPending();
    return libraryPage(this.db, request);
  }

  /** Every handle with reports in the library, A to Z, with its display name and report count. */
  handles(): LibraryHandle[] {
    return this.db
      .prepare<[], LibraryHandle>(
        `SELECT s.handle, MAX(s.username) AS username, MAX(n.display_name) AS displayName, COUNT(*) AS reports
         FROM snapshots s LEFT JOIN handle_names n ON n.service_url = s.service_url AND n.handle = s.handle
         GROUP BY s.handle ORDER BY s.handle`,
      )
      .all();
  }

  /** Display names from a freshly fetched shelf, kept for the handles the library holds. */
  nameHandles(serviceUrl: string, names: ReadonlyMap<string, string>): void {
    const owned = this.db
      .prepare<[string], { handle: string }>('SELECT DISTINCT handle FROM snapshots WHERE service_url = ?')
      .all(serviceUrl);
    const save = this.db.prepare(
      'INSERT OR REPLACE INTO handle_names (service_url, handle, display_name) VALUES (?, ?, ?)',
    );
    const forget = this.db.prepare('DELETE FROM handle_names WHERE service_url = ? AND handle = ?');
    this.db
      .transaction(() => {
        for (const { handle } of owned) {
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
    return searchLibrary(this.db, request);
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
      .all(handle.toLowerCase(), serviceUrl);
  }

  /** The handle as it was bought and its display name from the last shelf that named it. */
  handleNames(serviceUrl: string, handle: string): { username: string; displayName: string | null } {
    const row = this.db
      .prepare<[string, string], { username: string | null; displayName: string | null }>(
        `SELECT MAX(s.username) AS username, MAX(n.display_name) AS displayName
         FROM snapshots s LEFT JOIN handle_names n ON n.service_url = s.service_url AND n.handle = s.handle
         WHERE s.service_url = ? AND s.handle = ?`,
      )
      .get(serviceUrl, handle.toLowerCase());
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
