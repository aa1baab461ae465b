/**
 * Snapshot cache: insert rate against a bare better-sqlite3 loop, full-text search and listing latency.
 * Every size is filled from empty with core's real puts; the last MARGINAL puts are also timed alone, for
 * the insert rate a person sees when the cache is already that full.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDeskDb } from '../src/core/db/open';
import { SnapshotStore } from '../src/core/library/snapshots';
import { TOPICS } from '../src/service/store/vocabulary';
import { reportCorpus, type CorpusEntry } from './corpus';
import { percentile, round, timeMs, timeMsAsync, type Section } from './measure';

const BATCH = 25;
/** Real puts timed on top of a cache that already holds size - MARGINAL snapshots. */
const MARGINAL = 200;
/**
 * Both caches are filled in alternating rounds of this many reports, so a burst of disk or CPU contention
 * lands on both sides of the ratio instead of on one whole fill.
 */
const ROUND = 2_000;

function insertOurs(store: SnapshotStore, db: Database.Database, corpus: CorpusEntry[]): number {
  return timeMs(() => {
    for (let i = 0; i < corpus.length; i += BATCH) {
      db.transaction(() => {
        for (const { handle, snapshot, raw } of corpus.slice(i, i + BATCH)) {
          store.put('http://bench.invalid', handle, [{ snapshot, raw }], null, '2026-11-22T00:00:00.000Z');
        }
      })();
    }
  });
}

function bareTable(file: string): { db: Database.Database; insert: (corpus: CorpusEntry[]) => number } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE raw (id TEXT PRIMARY KEY, handle TEXT, created_at TEXT, body TEXT)');
  const statement = db.prepare('INSERT INTO raw VALUES (?, ?, ?, ?)');
  const insert = (corpus: CorpusEntry[]) =>
    timeMs(() => {
      for (let i = 0; i < corpus.length; i += BATCH) {
        db.transaction(() => {
          for (const entry of corpus.slice(i, i + BATCH))
            statement.run(entry.snapshot.id, entry.handle, entry.snapshot.createdAt, entry.raw);
        })();
      }
    });
  return { db, insert };
}

export function searchLatencies(store: SnapshotStore): number[] {
  return searchLatenciesSideBySide([store])[0]!;
}

/**
 * The same 200 queries timed in each store in turn, query by query (the first store first on even queries,
 * last on odd ones), so contention from the rest of the machine lands on every side of a comparison.
 */
export function searchLatenciesSideBySide(stores: SnapshotStore[]): number[][] {
  const words = TOPICS.flatMap((topic) => topic.split(' ')).concat([
    'posted',
    'sentiment',
    'thread',
    'official',
    'reporters',
  ]);
  const samples: number[][] = stores.map(() => []);
  for (let i = 0; i < 200; i++) {
    // One word, two words, and (every fifth) a quoted phrase or a prefix, as a person types them.
    const word = words[i % words.length]!;
    const query =
      i % 5 === 4
        ? i % 2 === 0
          ? `"${TOPICS[i % TOPICS.length]!}"`
          : word.slice(0, 3)
        : i % 3 === 0
          ? `${word} ${words[(i * 7) % words.length]}`
          : word;
    const order = stores.map((_, k) => (i % 2 === 0 ? k : stores.length - 1 - k));
    for (const k of order)
      // As the app asks while a person types: the last bare word is a prefix.
      // A page as the Library asks for it (SEARCH_PAGE in the renderer).
      samples[k]!.push(
        timeMs(() => stores[k]!.searchPage({ text: query, limit: 25, offset: 0, prefixLast: true })),
      );
  }
  return samples;
}

const perSecond = (count: number, ms: number) => round(count / (ms / 1000), 0);

async function measureAt(size: number, corpus: CorpusEntry[]): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-cache-'));
  try {
    const { db } = openDeskDb(path.join(dir, 'desk.db'));
    const store = new SnapshotStore(db);
    const bare = bareTable(path.join(dir, 'bare.db'));
    let firstMs = 0;
    let bareFirstMs = 0;
    for (let i = 0; i < size - MARGINAL; i += ROUND) {
      const round = corpus.slice(i, Math.min(i + ROUND, size - MARGINAL));
      firstMs += insertOurs(store, db, round);
      bareFirstMs += bare.insert(round);
    }
    const last = corpus.slice(size - MARGINAL, size);
    const lastMs = insertOurs(store, db, last);
    const bareLastMs = bare.insert(last);
    bare.db.close();
    // Search indexing runs after each purchase commits, not inside it: timed here on its own, all at once.
    const indexMs = timeMs(() => store.indexPending());
    // The index's words are read in steps once the store opens; an app open for a moment has them.
    const wordsMs = await timeMsAsync(() => store.vocabulary.ready());
    const search = searchLatencies(store);
    const listing = Array.from({ length: 10 }, () => timeMs(() => store.list()));
    // The Library screen's first page: 100 rows, the count and the total spent, in each sort.
    const sorts = ['date', 'handle', 'purchased', 'spent'] as const;
    const paging = Array.from({ length: 40 }, (_, i) =>
      timeMs(() => store.page({ sort: sorts[i % sorts.length], limit: 100 })),
    );
    // The seed may give two handles the same key, and so two reports the same id: one is kept, as in a desk.
    const distinct = new Set(corpus.slice(0, size).map((entry) => entry.snapshot.id)).size;
    if (store.list().length !== distinct)
      throw new Error(`the cache holds ${store.list().length}, not ${distinct}`);
    db.close();
    return {
      [`inserts_per_s_${size}`]: perSecond(size, firstMs + lastMs),
      [`bare_inserts_per_s_${size}`]: perSecond(size, bareFirstMs + bareLastMs),
      [`insert_overhead_ratio_${size}`]: round((firstMs + lastMs) / (bareFirstMs + bareLastMs)),
      [`search_indexing_per_s_${size}`]: perSecond(size, indexMs),
      [`insert_and_index_overhead_ratio_${size}`]: round(
        (firstMs + lastMs + indexMs) / (bareFirstMs + bareLastMs),
      ),
      [`marginal_inserts_per_s_at_${size}`]: perSecond(MARGINAL, lastMs),
      [`bare_marginal_inserts_per_s_at_${size}`]: perSecond(MARGINAL, bareLastMs),
      [`marginal_insert_overhead_ratio_at_${size}`]: round(lastMs / bareLastMs),
      [`search_words_read_ms_${size}`]: round(wordsMs, 0),
      [`fts_median_ms_${size}`]: round(percentile(search, 50), 3),
      [`fts_p95_ms_${size}`]: round(percentile(search, 95), 3),
      [`library_list_median_ms_${size}`]: round(percentile(listing, 50), 2),
      [`library_page_ms_${size}`]: round(percentile(paging, 50), 2),
      [`library_page_p95_ms_${size}`]: round(percentile(paging, 95), 2),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const cacheSection: Section = {
  name: 'snapshot cache (SQLite, FTS5)',
  async run() {
    const corpus = reportCorpus(100_000);
    return { ...(await measureAt(10_000, corpus)), ...(await measureAt(100_000, corpus)) };
  },
};
