/**
 * What finds a report beyond its stored row: its words (FTS5), facts, topics and place in date order
 * (snapshot_filters). Written by a pass just after the purchase that stored the report commits, in steps, so a
 * purchase never waits for it; every key up to search_progress.indexed_up_to has all of them, and readers that
 * need them catch the pass up first.
 */
import type { Statement } from 'better-sqlite3';
import type { LibraryIndexing } from '../../shared/rpc';
import type { DeskDb } from '../db/open';
import { withRelaxedDurability } from '../db/relaxed-durability';
import { reportFacts } from './report-facts';
import { parsedRaw, searchableText, textOfRaw, type Indexable } from './report-text';
import { SearchVocabulary } from './search-vocabulary';
import { MAX_SCANNED_CHARS } from './snippet';

/** A report's row in snapshot_filters (its place in date order and what filters judge). */
export interface FilterRow {
  createdAt: string;
  handle: string;
  model: string;
  postCount: number | null;
  spent: number;
}

/** What the put of a new report keeps for the pass, so it need not read the stored report back. */
export interface Held {
  id: string;
  serviceUrl: string;
  snapshot: Indexable;
  filters: FilterRow;
  chars: number;
}

/**
 * A report whose stored JSON is longer than this keeps the first MAX_SCANNED_CHARS of its searchable text in
 * snapshot_filters.snippet_text, so a search shows its snippet without reading the JSON (migration 11).
 */
export const SNIPPET_KEPT_FROM_CHARS = 256 * 1024;

/** Reports indexed per step of the background catch-up, at most. */
export const INDEX_STEP = 200;
/**
 * How long a step of the background pass should hold core's thread: a page asked for meanwhile waits behind
 * one step (200 reports took 250 ms on a loaded machine). The step's size follows the measured rate.
 */
export const STEP_BUDGET_MS = 12;

/**
 * Reports held from their put, bounded by the stored JSON's length: past this many characters, or after a
 * restart, the pass parses the stored report instead (the parse was 40% of indexing), with the same result.
 */
const MAX_HELD_JSON_CHARS = 32 * 1024 * 1024;

interface IndexStatements {
  removeText: Statement<[number]>;
  addText: Statement<[number, string]>;
  indexedUpTo: Statement<[], { n: number }>;
  anyPending: Statement<[], { pending: number }>;
  progress: Statement<[], { pending: number; total: number }>;
  /** Reports not indexed yet, counted up to a limit. */
  pendingAtMost: Statement<[number], { n: number }>;
  fillPending: Statement<[], { n: number }>;
  /** Reports an upgrade left to fill, newest key first (deferred-fills.ts). */
  toFill: Statement<[number, number], FilterRow & { key: number; raw: string }>;
  setFillPending: Statement<[number]>;
  pending: Statement<[number, number], { key: number; id: string; serviceUrl: string }>;
  /** The stored report and its filter row, for reports not held (the price is stored past the JSON). */
  storedOf: Statement<[number], FilterRow & { raw: string }>;
  putFilters: Statement;
  markIndexed: Statement<[number]>;
  putFacts: Statement;
  removeTopics: Statement<[number]>;
  addTopic: Statement<[string, number]>;
}

export class SearchIndex {
  /** The index's words, for prefixes typed in the Library. */
  readonly vocabulary: SearchVocabulary;
  private statements: IndexStatements | null = null;
  /** Keyed by the row's key, and kept with its report id: a rolled-back put may leave its key to another. */
  private readonly held = new Map<number, Held>();
  private heldChars = 0;
  private scheduled = false;
  /** Milliseconds a report took to index in the last steps, for the size of a step within a budget. */
  private msPerReport = 1;

  /**
   * `stepFailed` hears what stopped a background step (a damaged page, a full disk): the pass stops there and
   * the next read that needs it starts it again, so no error escapes into the process.
   */
  constructor(
    private readonly db: DeskDb,
    private readonly stepFailed: (error: unknown) => void = () => undefined,
  ) {
    this.vocabulary = new SearchVocabulary(db, textOfRaw);
  }

  private prepared(): IndexStatements {
    this.statements ??= {
      removeText: this.db.prepare('DELETE FROM snapshot_search WHERE rowid = ?'),
      addText: this.db.prepare('INSERT INTO snapshot_search (rowid, body) VALUES (?, ?)'),
      indexedUpTo: this.db.prepare('SELECT indexed_up_to AS n FROM search_progress WHERE id = 1'),
      anyPending: this.db.prepare(
        `SELECT EXISTS (SELECT 1 FROM snapshots
           WHERE text_id > (SELECT indexed_up_to FROM search_progress WHERE id = 1)) AS pending`,
      ),
      // From indexes. The keys not indexed yet are a short range at the end of the table; the keys an upgrade
      // left to fill are counted in the narrowest index (every index holds the key): counted in the table,
      // a range of 100k keys read the whole library, about a second.
      pendingAtMost: this.db.prepare(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM snapshots
           WHERE text_id > (SELECT indexed_up_to FROM search_progress WHERE id = 1) LIMIT ?)`,
      ),
      progress: this.db.prepare(
        `SELECT (SELECT COUNT(*) FROM snapshots
                   WHERE text_id > (SELECT indexed_up_to FROM search_progress WHERE id = 1))
              + (SELECT COUNT(*) FROM snapshots INDEXED BY snapshots_by_spent
                   WHERE text_id <= COALESCE((SELECT pending_up_to FROM upgrade_fill WHERE id = 1), 0)) AS pending,
                (SELECT COUNT(*) FROM snapshots) AS total`,
      ),
      fillPending: this.db.prepare(
        'SELECT COALESCE((SELECT pending_up_to FROM upgrade_fill WHERE id = 1), 0) AS n',
      ),
      toFill: this.db.prepare(
        `SELECT text_id AS key, raw_json AS raw, created_at AS createdAt, handle, model, post_count AS postCount,
           spent_atomic AS spent FROM snapshots WHERE text_id <= ? ORDER BY text_id DESC LIMIT ?`,
      ),
      setFillPending: this.db.prepare('UPDATE upgrade_fill SET pending_up_to = ? WHERE id = 1'),
      // Without the JSON: most pending reports are held from their put, and reading it walks its overflow pages.
      pending: this.db.prepare(
        `SELECT text_id AS key, id, service_url AS serviceUrl FROM snapshots WHERE text_id > ? ORDER BY text_id LIMIT ?`,
      ),
      storedOf: this.db.prepare(
        `SELECT raw_json AS raw, created_at AS createdAt, handle, model, post_count AS postCount,
           spent_atomic AS spent FROM snapshots WHERE text_id = ?`,
      ),
      putFilters: this.db.prepare(
        `INSERT OR REPLACE INTO snapshot_filters
           (created_at, text_id, handle, model, post_count, spent_atomic, snippet_text)
         VALUES (@createdAt, @key, @handle, @model, @postCount, @spent, @snippetText)`,
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

  /** Keeps what the put of a new report knows, for the pass. */
  hold(key: number, held: Held): void {
    this.forget(key);
    if (this.heldChars + held.chars > MAX_HELD_JSON_CHARS) return;
    this.held.set(key, held);
    this.heldChars += held.chars;
  }

  /** Drops what was held for the key: the pass reads the stored report, whichever copy a transaction leaves. */
  forget(key: number): void {
    const held = this.held.get(key);
    if (held === undefined) return;
    this.held.delete(key);
    this.heldChars -= held.chars;
  }

  /** Drops everything held: the reports were replaced, and the pass reads each stored one. */
  forgetHeld(): void {
    this.held.clear();
    this.heldChars = 0;
  }

  /** What was kept from the put of this very report, if anything. */
  private take(row: { key: number; id: string; serviceUrl: string }): Held | undefined {
    const held = this.held.get(row.key);
    this.forget(row.key);
    return held && held.id === row.id && held.serviceUrl === row.serviceUrl ? held : undefined;
  }

  /** A report stored again: if the pass already indexed it, its rows are replaced now, in the caller's transaction. */
  restored(key: number, snapshot: Indexable, rawChars: number): void {
    this.forget(key);
    if (key <= (this.prepared().indexedUpTo.get()?.n ?? 0)) this.index(key, snapshot, null, rawChars, true);
  }

  /**
   * `again` replaces what an earlier copy left. Without `filters`, they are read from the stored row.
   * `rawChars`: the length of the stored JSON, which decides whether a snippet's text is kept. The text indexed.
   */
  private index(
    key: number,
    snapshot: Indexable | null,
    filters: FilterRow | null,
    rawChars: number,
    again: boolean,
  ): string {
    const { removeText, addText, removeTopics, storedOf } = this.prepared();
    if (again) {
      removeText.run(key);
      removeTopics.run(key);
    }
    const text = snapshot ? searchableText(snapshot) : '';
    addText.run(key, text);
    // A new report's words reach the vocabulary as it catches up with indexed_up_to, whichever process
    // indexed it; a copy stored again keeps its key, so its words are added here.
    if (again) this.vocabulary.addText(text);
    this.derive(key, snapshot, filters ?? storedOf.get(key) ?? null, text, rawChars);
    return text;
  }

  /** A report's facts, topics and date-order row (with its snippet text when its JSON is large). */
  private derive(
    key: number,
    snapshot: Indexable | null,
    filters: FilterRow | null,
    text: string,
    rawChars: number,
  ): void {
    const { putFacts, addTopic, putFilters } = this.prepared();
    const { topics, ...facts } = reportFacts(snapshot ?? { analytics: {} });
    putFacts.run({ key, ...facts });
    for (const topic of topics) addTopic.run(topic, key);
    const snippetText = rawChars > SNIPPET_KEPT_FROM_CHARS ? text.slice(0, MAX_SCANNED_CHARS) : null;
    if (filters !== null) putFilters.run({ key, ...filters, snippetText });
  }

  /**
   * Fills, for at most `max` reports an upgrade left (deferred-fills.ts), newest key first, what migrations 8
   * and 10 would have filled at start; returns how many. Their words were indexed before the upgrade.
   */
  fillStep(max: number): number {
    const { fillPending, toFill, setFillPending } = this.prepared();
    const upTo = fillPending.get()?.n ?? 0;
    if (upTo <= 0) return 0;
    return withRelaxedDurability(this.db, () =>
      this.db
        .transaction(() => {
          const rows = toFill.all(upTo, max);
          for (const { key, raw, ...filters } of rows) {
            const snapshot = parsedRaw(raw);
            const text = raw.length > SNIPPET_KEPT_FROM_CHARS && snapshot ? searchableText(snapshot) : '';
            this.derive(key, snapshot, filters, text, raw.length);
          }
          setFillPending.run(rows.length === max ? rows.at(-1)!.key - 1 : 0);
          return rows.length;
        })
        .immediate(),
    );
  }

  /**
   * One step of the pass, at most INDEX_STEP reports: new reports first (a purchase's reports are found at
   * once), then what an upgrade left to fill. Whether there may be more.
   */
  step(budgetMs = Number.POSITIVE_INFINITY): boolean {
    const size = Math.max(1, Math.min(INDEX_STEP, Math.floor(budgetMs / this.msPerReport)));
    // The size follows the last steps' rate, which a run of larger reports outgrows: the step also stops at
    // its budget (a team's first pull went to 28 ms a step against 12).
    const deadline = performance.now() + budgetMs;
    const indexed = this.timed(() => this.catchUp(size, deadline));
    if (indexed === size || performance.now() >= deadline) return true;
    return this.timed(() => this.fillStep(size - indexed)) > 0;
  }

  /**
   * The step a page takes before it is read: a purchase's few reports are all indexed first; a backlog (an
   * upgrade, a crash before indexing) gets one step within the budget, so the page is not held behind it.
   */
  pageStep(): void {
    const { fillPending, pendingAtMost } = this.prepared();
    const backlog =
      (fillPending.get()?.n ?? 0) > 0 || (pendingAtMost.get(INDEX_STEP + 1)?.n ?? 0) > INDEX_STEP;
    this.step(backlog ? STEP_BUDGET_MS : undefined);
  }

  private timed(run: () => number): number {
    const started = performance.now();
    const done = run();
    if (done > 0) this.msPerReport = 0.5 * this.msPerReport + (0.5 * (performance.now() - started)) / done;
    return done;
  }

  /** Runs the pass in steps once the current call is done, so a purchase never waits for it. */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.db.open) return;
      try {
        if (this.step(STEP_BUDGET_MS)) this.schedule();
      } catch (error) {
        this.stepFailed(error);
      }
    });
  }

  /**
   * For a writer that should not outrun the pass (a team's first pull): whether reports stored are still to
   * be indexed. The pass's steps run in the turns the writer waits; a pass an error stopped takes its step
   * here, so the error reaches the writer instead of the writer waiting for ever.
   */
  behind(): boolean {
    if (!this.prepared().anyPending.get()?.pending) return false;
    if (!this.scheduled && this.step(STEP_BUDGET_MS)) this.schedule();
    return true;
  }

  /** null when every stored report is indexed; else how far the pass has got. */
  progress(): LibraryIndexing | null {
    const { anyPending, fillPending, progress } = this.prepared();
    if (!anyPending.get()?.pending && (fillPending.get()?.n ?? 0) <= 0) return null;
    const counts = progress.get() ?? { pending: 0, total: 0 };
    return counts.pending === 0 ? null : { indexed: counts.total - counts.pending, total: counts.total };
  }

  /**
   * Indexes the reports stored since the last call, at most `max` of them and none begun past `deadline` (a
   * performance.now() time; at least one is), in one transaction; returns how many. Keys only grow (reports
   * are never deleted), so "up to" is exact.
   */
  catchUp(max = Number.MAX_SAFE_INTEGER, deadline = Number.POSITIVE_INFINITY): number {
    const { indexedUpTo, anyPending, pending, storedOf, markIndexed } = this.prepared();
    // Every page and search asks first: with nothing to index, no write lock is taken (another process,
    // such as a CLI run on the same library, may hold it).
    if (!anyPending.get()?.pending) return 0;
    const texts: string[] = [];
    // Lost to a power cut, a step is indexed again: indexed_up_to moves in its transaction (relaxed-durability.ts).
    const { from, upTo } = withRelaxedDurability(this.db, () =>
      this.db
        .transaction(() => {
          const after = indexedUpTo.get()?.n ?? 0;
          let last: number | undefined;
          for (const row of pending.all(after, max)) {
            if (last !== undefined && performance.now() >= deadline) break;
            last = row.key;
            const held = this.take(row);
            if (held) texts.push(this.index(row.key, held.snapshot, held.filters, held.chars, false));
            else {
              const stored = storedOf.get(row.key);
              const snapshot = parsedRaw(stored?.raw);
              texts.push(this.index(row.key, snapshot, stored ?? null, stored?.raw.length ?? 0, false));
            }
          }
          if (last !== undefined) markIndexed.run(last);
          return { from: after, upTo: last ?? after };
        })
        .immediate(),
    );
    // Committed: the words go to the list now. Read back from the reports later, a backlog past what the list
    // catches up on (a team's first pull) had it read the whole index again, and prefixes waited for FTS5.
    this.vocabulary.indexed(from, upTo, texts);
    return texts.length;
  }
}
