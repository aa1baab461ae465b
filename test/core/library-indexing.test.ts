/**
 * A library whose indexing pass is far behind (an upgrade that fills new tables, a crash right after a large
 * purchase) opens at once: the first page does not wait for the whole pass, says how far it has got, and the
 * pass finishes in the background.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDeskDb } from '../../src/core/db/open';
import { SnapshotStore } from '../../src/core/library/snapshots';
import { INDEX_STEP } from '../../src/core/library/search-index';
import { MAX_CATCH_UP } from '../../src/core/library/search-vocabulary';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { indexingUntilDone, tempDir } from './helpers';

const SERVICE = 'http://a.example';
const REPORTS = INDEX_STEP * 3 + 17;

function snapshot(n: number): IntelReportSnapshot {
  return {
    id: `r${n}`,
    createdAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    model: 'm',
    synthesisSettings: {},
    meta: { postCount: 3, dateRange: null },
    analytics: {},
    narrative: { summary: `report number ${n} about geothermal permits` },
    changeSummary: null,
    previousReportId: null,
  };
}

/** A library holding REPORTS reports, none of them indexed: the run that stored them stopped first. */
function unindexedLibrary(file: string): void {
  const { db } = openDeskDb(file);
  const store = new SnapshotStore(db);
  const entries = Array.from({ length: REPORTS }, (_, n) => {
    const snap = snapshot(n);
    return { snapshot: snap, raw: JSON.stringify(snap) };
  });
  db.transaction(() => store.put(SERVICE, 'ada', entries, null, '2026-02-01T00:00:00.000Z'))();
  db.close();
}

describe('library with an indexing backlog', () => {
  it('pages at once with the progress of the pass, which finishes in the background', async () => {
    const data = tempDir('desk-backlog-');
    const file = path.join(data.dir, 'desk.db');
    try {
      unindexedLibrary(file);
      const { db } = openDeskDb(file);
      try {
        const store = new SnapshotStore(db);
        const first = store.page({ limit: 10 });
        // One step indexed before the page was read, as long as the background pass's (STEP_BUDGET_MS), not
        // the whole backlog; the page shows what it reached.
        const indexed = first.indexing?.indexed ?? 0;
        expect(first.indexing?.total).toBe(REPORTS);
        expect(indexed).toBeGreaterThan(0);
        expect(indexed).toBeLessThanOrEqual(INDEX_STEP);
        expect(first.total).toBe(REPORTS);
        expect(first.items.map((item) => item.id)).toEqual(
          Array.from({ length: Math.min(10, indexed) }, (_, i) => `r${indexed - 1 - i}`),
        );
        // Other orders read the reports themselves: complete while the pass runs.
        expect(store.page({ sort: 'purchased', limit: REPORTS }).items).toHaveLength(REPORTS);
        const seen = await indexingUntilDone(store);
        const done = store.page({ limit: 10 });
        expect(done.indexing).toBeUndefined();
        expect(done.items[0]?.id).toBe(`r${REPORTS - 1}`);
        expect(store.search('geotherm*', 1000)).toHaveLength(REPORTS);
        // Progress only goes forward.
        expect(seen).toEqual([...seen].sort((a, b) => a - b));
      } finally {
        db.close();
      }
    } finally {
      data.remove();
    }
  });

  it('indexes a purchase of a few reports before its page, so the page is complete', () => {
    const data = tempDir('desk-backlog-');
    try {
      const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
      try {
        const store = new SnapshotStore(db);
        const snap = snapshot(1);
        db.transaction(() =>
          store.put(SERVICE, 'ada', [{ snapshot: snap, raw: JSON.stringify(snap) }], null, snap.createdAt),
        )();
        const page = store.page({ limit: 10 });
        expect(page.indexing).toBeUndefined();
        expect(page.items.map((item) => item.id)).toEqual(['r1']);
      } finally {
        db.close();
      }
    } finally {
      data.remove();
    }
  });

  it("keeps a backlog's words for typed prefixes as its pass indexes it, past what the list reads back", async () => {
    const data = tempDir('desk-backlog-');
    try {
      const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
      try {
        const store = new SnapshotStore(db);
        const put = (entries: IntelReportSnapshot[]) =>
          db.transaction(() =>
            store.put(
              SERVICE,
              'ada',
              entries.map((snap) => ({ snapshot: snap, raw: JSON.stringify(snap) })),
              null,
              '2026-02-01T00:00:00.000Z',
            ),
          )();
        put([snapshot(0)]);
        store.indexPending();
        await store.vocabulary.ready();
        // A team's first pull: more reports than the list catches up on by reading them back, a new word in
        // the last ones, indexed by the background pass in its steps.
        const backlog = Array.from({ length: MAX_CATCH_UP + INDEX_STEP }, (_, n) => snapshot(n + 1));
        for (const snap of backlog.slice(-3)) snap.narrative = { summary: `zeolite beds ${snap.id}` };
        put(backlog);
        await indexingUntilDone(store);
        expect(store.vocabulary.expand('zeol')).toEqual(['zeolite']);
        const found = store.searchPage({ text: 'zeol', limit: 10, offset: 0, prefixLast: true });
        const byFts = db
          .prepare<[], { rowid: number }>(
            `SELECT rowid FROM snapshot_search WHERE snapshot_search MATCH '"zeol"*'`,
          )
          .all();
        expect(found.hits.map((hit) => hit.id).sort()).toEqual(
          backlog
            .slice(-3)
            .map((snap) => snap.id)
            .sort(),
        );
        expect(found.hits).toHaveLength(byFts.length);
      } finally {
        db.close();
      }
    } finally {
      data.remove();
    }
  });

  it('stops a step of the pass at its deadline, after one report at least, and the next goes on in order', () => {
    const data = tempDir('desk-backlog-');
    try {
      unindexedLibrary(path.join(data.dir, 'desk.db'));
      const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
      try {
        const store = new SnapshotStore(db);
        const indexedUpTo = () =>
          db.prepare<[], { n: number }>('SELECT indexed_up_to AS n FROM search_progress WHERE id = 1').get()!
            .n;
        // A deadline already past: one report, however many the step may take.
        expect(store.searchIndex.catchUp(INDEX_STEP, performance.now() - 1)).toBe(1);
        expect(indexedUpTo()).toBe(1);
        expect(store.searchIndex.catchUp(INDEX_STEP)).toBe(INDEX_STEP);
        expect(indexedUpTo()).toBe(INDEX_STEP + 1);
        const hits = store.searchPage({ text: 'geothermal', limit: REPORTS, offset: 0 });
        expect(hits.count).toBe(REPORTS);
        expect(new Set(hits.hits.map((hit) => hit.id)).size).toBe(REPORTS);
      } finally {
        db.close();
      }
    } finally {
      data.remove();
    }
  });
});
