import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openServiceDb, type ServiceDb } from '../../src/service/store/db';
import { DEMO_SEED, seedSizeOptions, seedStore, type SeedOptions } from '../../src/service/store/seed';
import { HandleStore } from '../../src/service/store/handles';
import { intelReportSnapshotSchema, shelfListSchema, type IntelReportSnapshot } from '../../src/shared/wire';

const dirs: string[] = [];
const dbs: ServiceDb[] = [];

function seeded(options: SeedOptions): {
  db: ServiceDb;
  store: HandleStore;
  counts: ReturnType<typeof seedStore>;
  file: string;
} {
  const dir = mkdtempSync(path.join(tmpdir(), 'service-seed-'));
  dirs.push(dir);
  const file = path.join(dir, 'service.db');
  const db = openServiceDb(file);
  dbs.push(db);
  const counts = seedStore(db, options);
  return { db, store: new HandleStore(db), counts, file };
}

afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function historyOf(db: ServiceDb, key: string): IntelReportSnapshot[] {
  return db
    .prepare<[string], { body_json: string }>(
      'SELECT body_json FROM reports WHERE handle_key = ? ORDER BY created_at ASC, id ASC',
    )
    .all(key)
    .map((row) => intelReportSnapshotSchema.parse(JSON.parse(row.body_json)));
}

/** Oldest first: the baseline has no predecessor and no change summary; every later report points back. */
function expectBaselineRule(history: IntelReportSnapshot[], label: string): void {
  expect(history.length, label).toBeGreaterThan(0);
  history.forEach((report, i) => {
    if (i === 0) {
      expect(report.changeSummary, `${label} baseline`).toBeNull();
      expect(report.previousReportId, `${label} baseline`).toBeNull();
    } else {
      expect(report.previousReportId, `${label} #${i}`).toBe(history[i - 1]?.id);
      expect(report.changeSummary, `${label} #${i}`).not.toBeNull();
      expect(report.createdAt >= (history[i - 1]?.createdAt ?? ''), `${label} #${i} order`).toBe(true);
    }
  });
}

describe('the demo seed', () => {
  it('holds at least 50 handles with 1 to 30 realistic reports each, obeying the baseline rule', () => {
    const { db, store, counts } = seeded(DEMO_SEED);
    const shelf = shelfListSchema.parse(JSON.parse(store.shelfJson()));
    expect(shelf.entries.length).toBeGreaterThanOrEqual(50);
    expect(counts.handles).toBe(shelf.entries.length);
    const sizes = new Set<number>();
    let total = 0;
    for (const entry of shelf.entries) {
      const key = entry.username.toLowerCase();
      const history = historyOf(db, key);
      expect(entry.reportCount).toBe(history.length);
      expect(history.length).toBeGreaterThanOrEqual(1);
      expect(history.length).toBeLessThanOrEqual(30);
      sizes.add(history.length);
      total += history.length;
      expectBaselineRule(history, entry.username);
      const latest = history.at(-1)!;
      expect(entry.gatheredAt).toBe(latest.createdAt);
      // Narrative sections are prose, analytics are structured, change summaries say what moved.
      expect(Object.keys(latest.narrative)).toEqual(
        expect.arrayContaining(['summary', 'themes', 'sentiment', 'notablePosts', 'network', 'outlook']),
      );
      expect(String(latest.narrative['summary']).length).toBeGreaterThan(80);
      expect(latest.analytics).toHaveProperty('topicShare');
      expect(latest.analytics).toHaveProperty('engagement');
      expect(latest.meta.postIdsAnalyzed?.length).toBeGreaterThan(0);
      if (history.length > 1) expect(latest.changeSummary).toHaveProperty('headline');
    }
    expect(total).toBe(counts.reports);
    // The sizes really spread over the range rather than all handles looking alike.
    expect(sizes.size).toBeGreaterThan(10);
  });

  it('is identical on every run with the same seed, and different with another', () => {
    const rows = (db: ServiceDb) =>
      db.prepare('SELECT id, handle_key, created_at, body_json FROM reports ORDER BY id').all();
    const options = { ...DEMO_SEED, handles: 12 };
    const first = seeded(options);
    const second = seeded(options);
    expect(rows(second.db)).toEqual(rows(first.db));
    expect(second.store.shelfJson()).toBe(first.store.shelfJson());
    const other = seeded({ ...options, seed: options.seed + 1 });
    expect(rows(other.db)).not.toEqual(rows(first.db));
  });
});

/** What one full report says about its topics, in each of the three places that say it. */
function topicsOf(report: IntelReportSnapshot) {
  const shares = report.analytics['topicShare'] as { label: string; value: number }[];
  const summary = String(report.narrative['summary']);
  const said = /more about (.+) than anything else \((\d+)% of posts\)/.exec(summary);
  const change = report.changeSummary as {
    headline: string;
    newTopics: string[];
    droppedTopics: string[];
  } | null;
  return { shares, said, change };
}

describe('the demo seed tells one story', () => {
  it('narrative, change summary and analytics agree on every report', () => {
    const { db, store } = seeded(DEMO_SEED);
    const shelf = shelfListSchema.parse(JSON.parse(store.shelfJson()));
    let checked = 0;
    for (const entry of shelf.entries) {
      for (const report of historyOf(db, entry.username.toLowerCase())) {
        const { shares, said, change } = topicsOf(report);
        const label = report.id;
        const top = [...shares].sort((a, b) => b.value - a.value)[0]!;
        // The topic the narrative leads with is the chart's largest share, at the percentage it states.
        expect(said, label).not.toBeNull();
        expect(said![1], label).toBe(top.label);
        expect(Number(said![2]), label).toBe(Math.round(top.value * 100));
        expect(
          shares.filter((s) => s.value === top.value),
          `${label} ties`,
        ).toHaveLength(1);
        const total = shares.reduce((sum, s) => sum + s.value, 0);
        expect(total, label).toBeGreaterThan(0.97);
        expect(total, label).toBeLessThan(1.03);
        if (change) {
          expect(change.headline, label).toContain(top.label);
          // Dropped topics are gone from this report's chart, never its top topic; new ones are on it.
          expect(change.droppedTopics, label).not.toContain(top.label);
          for (const dropped of change.droppedTopics)
            expect(
              shares.map((s) => s.label),
              label,
            ).not.toContain(dropped);
          for (const added of change.newTopics)
            expect(
              shares.map((s) => s.label),
              label,
            ).toContain(added);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });
});

describe('--seed-size', () => {
  it('parses HANDLES and HANDLES:REPORTS, and says what is wrong otherwise', () => {
    expect(seedSizeOptions('75')).toEqual({ handles: 75 });
    expect(seedSizeOptions('100000:1000000')).toEqual({
      handles: 100_000,
      minReportsPerHandle: 1,
      maxReportsPerHandle: 19,
      compact: true,
    });
    expect(seedSizeOptions('10:10')).toMatchObject({ minReportsPerHandle: 1, maxReportsPerHandle: 1 });
    for (const bad of ['', 'many', '0', '10:', '10:5', '-3', '1.5', '10:20:30']) {
      expect(() => seedSizeOptions(bad), bad).toThrow(/--seed-size/);
    }
  });

  it('makes a large compact store close to the requested size, baseline rule intact', () => {
    const size = seedSizeOptions('3000:30000');
    const { db, counts, file } = seeded({ ...DEMO_SEED, ...size });
    // The seed's write-ahead log is folded into the database, not left beside it at the same size.
    expect(statSync(`${file}-wal`).size).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(10_000_000);
    expect(counts.handles).toBe(3000);
    expect(counts.reports).toBeGreaterThan(27_000);
    expect(counts.reports).toBeLessThan(33_000);
    const stored = db.prepare('SELECT COUNT(*) AS n FROM reports').get() as { n: number };
    expect(stored.n).toBe(counts.reports);
    const keys = db
      .prepare<[], { handle_key: string }>('SELECT handle_key FROM handles ORDER BY handle_key LIMIT 25')
      .all();
    for (const { handle_key } of keys) expectBaselineRule(historyOf(db, handle_key), handle_key);
    // Usernames stay unique even when names repeat (the index is part of the handle).
    const distinct = db.prepare('SELECT COUNT(DISTINCT handle_key) AS n FROM handles').get() as { n: number };
    expect(distinct.n).toBe(3000);
  });
});

describe('the shelf cache', () => {
  it('is rebuilt after a bundle write and kept when a write is refused', () => {
    const { store } = seeded({ ...DEMO_SEED, handles: 5, maxReportsPerHandle: 4 });
    const before = shelfListSchema.parse(JSON.parse(store.shelfJson()));
    const entry = before.entries[4]!;
    const bundle = store.bundle(entry.username.toLowerCase())!;
    const newer = new Date(Date.parse(bundle.gatheredAt) + 365 * 86_400_000).toISOString();
    expect(store.putBundle({ ...bundle, gatheredAt: newer }).written).toBe(true);
    const after = shelfListSchema.parse(JSON.parse(store.shelfJson()));
    expect(after.entries[0]).toMatchObject({ username: entry.username, gatheredAt: newer });
    const cached = store.shelfJson();
    expect(store.putBundle({ ...bundle, displayName: 'x' }).written).toBe(false);
    expect(store.shelfJson()).toBe(cached);
  });
});
