/** Realistic snapshots for the cache benchmarks, made by the reference service's deterministic seed. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openServiceDb } from '../src/service/store/db';
import { DEMO_SEED, seedStore } from '../src/service/store/seed';
import type { IntelReportSnapshot } from '../src/shared/wire';

export interface CorpusEntry {
  handle: string;
  raw: string;
  snapshot: IntelReportSnapshot;
}

export function reportCorpus(count: number): CorpusEntry[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-corpus-'));
  const db = openServiceDb(path.join(dir, 'corpus.db'));
  try {
    seedStore(db, {
      ...DEMO_SEED,
      // At least 20 reports per handle: enough handles that the seed always holds `count` reports.
      handles: Math.ceil(count / 20),
      minReportsPerHandle: 20,
      maxReportsPerHandle: 30,
      seed: 7,
    });
    return db
      .prepare<[number], { handle_key: string; body_json: string }>(
        'SELECT handle_key, body_json FROM reports LIMIT ?',
      )
      .all(count)
      .map((row) => ({
        handle: row.handle_key,
        raw: row.body_json,
        snapshot: JSON.parse(row.body_json) as IntelReportSnapshot,
      }));
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
