/** Snapshot cache: insert rate against a bare better-sqlite3 loop, full-text search and listing latency. */
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

function insertBare(file: string, corpus: CorpusEntry[]): number {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE raw (id TEXT PRIMARY KEY, handle TEXT, created_at TEXT, body TEXT)');
  const insert = db.prepare('INSERT INTO raw VALUES (?, ?, ?, ?)');
  const ms = timeMs(() => {
    for (let i = 0; i < corpus.length; i += BATCH) {
      db.transaction(() => {
        for (const entry of corpus.slice(i, i + BATCH))
          insert.run(entry.snapshot.id, entry.handle, entry.snapshot.createdAt, entry.raw);
      })();
    }
  });
  db.close();
  return ms;
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

async function measureAt(size: number, corpus: CorpusEntry[]): Promise<Record<string, number>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-cache-'));
  try {
    const { db } = openDeskDb(path.join(dir, 'desk.db'));
    const store = new SnapshotStore(db);
    const oursMs = insertOurs(store, db, corpus.slice(0, size));
    const bareMs = insertBare(path.join(dir, 'bare.db'), corpus.slice(0, size));
    const search = searchLatencies(store);
    const listing = Array.from({ length: 10 }, () => timeMs(() => store.list()));
    db.close();
    return {
      [`inserts_per_s_${size}`]: round(size / (oursMs / 1000), 0),
      [`bare_inserts_per_s_${size}`]: round(size / (bareMs / 1000), 0),
      [`insert_overhead_ratio_${size}`]: round(oursMs / bareMs),
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
