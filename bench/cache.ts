/**
 * Snapshot cache: insert rate against a bare better-sqlite3 loop, full-text search and listing latency.
 *
 * SnapshotStore.put deletes the snapshot's old full-text row with `DELETE FROM snapshot_text WHERE id = ?`;
 * `id` is an UNINDEXED column of the FTS5 table, so each put scans every row already cached and filling a
 * cache from empty is quadratic (100k from empty was still running after 16 minutes on 2 shared cores).
 * So 10k is filled from empty with real puts, while 100k is preloaded with puts that skip that delete (a
 * no-op for a new id) and then timed on the last MARGINAL real puts: the insert rate a person sees when the
 * cache holds 100k.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDeskDb } from '../src/core/db/open';
import { SnapshotStore } from '../src/core/cache/snapshots';
import { TOPICS } from '../src/service/store/vocabulary';
import { reportCorpus, type CorpusEntry } from './corpus';
import { percentile, round, timeMs, type Section } from './measure';

const BATCH = 25;
/** Real puts timed on top of a cache that already holds size - MARGINAL snapshots. */
const MARGINAL = 200;
/** Sizes filled from empty with real puts; larger ones are preloaded without the FTS delete. */
const FULL_FILL_UP_TO = 10_000;
const FTS_DELETE = 'DELETE FROM snapshot_text WHERE id = ?';

function insertOurs(store: SnapshotStore, db: Database.Database, corpus: CorpusEntry[]): number {
  return timeMs(() => {
    for (let i = 0; i < corpus.length; i += BATCH) {
      db.transaction(() => {
        for (const { handle, snapshot, raw } of corpus.slice(i, i + BATCH)) {
          store.put(handle, [{ snapshot, raw }], null, '2026-11-22T00:00:00.000Z');
        }
      })();
    }
  });
}

/** SnapshotStore with core's own SQL, except the FTS delete; `skipped` counts how often it was asked for. */
function storeWithoutFtsDelete(db: Database.Database): { store: SnapshotStore; skipped: () => number } {
  let skipped = 0;
  const noop = { run: () => ({ changes: 0, lastInsertRowid: 0 }) } as unknown as Database.Statement;
  const proxy = new Proxy(db, {
    get(target, property) {
      if (property === 'prepare') {
        return (sql: string) => (sql === FTS_DELETE ? (skipped++, noop) : target.prepare(sql));
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: new SnapshotStore(proxy), skipped: () => skipped };
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

function searchLatencies(store: SnapshotStore): number[] {
  const words = TOPICS.flatMap((topic) => topic.split(' ')).concat([
    'posted',
    'sentiment',
    'thread',
    'official',
    'reporters',
  ]);
  const samples: number[] = [];
  for (let i = 0; i < 200; i++) {
    const query =
      i % 3 === 0 ? `${words[i % words.length]} ${words[(i * 7) % words.length]}` : words[i % words.length]!;
    samples.push(timeMs(() => store.search(query, 50)));
  }
  return samples;
}

const perSecond = (count: number, ms: number) => round(count / (ms / 1000), 0);

async function measureAt(size: number, corpus: CorpusEntry[]): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-cache-'));
  try {
    const { db } = openDeskDb(path.join(dir, 'desk.db'));
    const store = new SnapshotStore(db);
    const first = corpus.slice(0, size - MARGINAL);
    const last = corpus.slice(size - MARGINAL, size);
    const full = size <= FULL_FILL_UP_TO;
    const preload = full ? { store, skipped: () => 0 } : storeWithoutFtsDelete(db);
    const firstMs = insertOurs(preload.store, db, first);
    const lastMs = insertOurs(store, db, last);
    const bare = bareTable(path.join(dir, 'bare.db'));
    const bareFirstMs = bare.insert(first);
    const bareLastMs = bare.insert(last);
    bare.db.close();
    const search = searchLatencies(store);
    const listing = Array.from({ length: 10 }, () => timeMs(() => store.list()));
    if (store.list().length !== size) throw new Error(`the cache holds ${store.list().length}, not ${size}`);
    db.close();
    const fill = full
      ? {
          [`inserts_per_s_${size}`]: perSecond(size, firstMs + lastMs),
          [`bare_inserts_per_s_${size}`]: perSecond(size, bareFirstMs + bareLastMs),
          [`insert_overhead_ratio_${size}`]: round((firstMs + lastMs) / (bareFirstMs + bareLastMs)),
        }
      : {
          [`preload_inserts_per_s_${size}_without_fts_delete`]: perSecond(first.length, firstMs),
          [`bare_inserts_per_s_${size}`]: perSecond(first.length, bareFirstMs),
          [`insert_overhead_ratio_${size}_without_fts_delete`]: round(firstMs / bareFirstMs),
          [`preload_fts_deletes_skipped_${size}`]: preload.skipped(),
        };
    return {
      ...fill,
      [`marginal_inserts_per_s_at_${size}`]: perSecond(MARGINAL, lastMs),
      [`bare_marginal_inserts_per_s_at_${size}`]: perSecond(MARGINAL, bareLastMs),
      [`marginal_insert_overhead_ratio_at_${size}`]: round(lastMs / bareLastMs),
      [`fts_median_ms_${size}`]: round(percentile(search, 50), 3),
      [`fts_p95_ms_${size}`]: round(percentile(search, 95), 3),
      [`library_list_median_ms_${size}`]: round(percentile(listing, 50), 2),
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
