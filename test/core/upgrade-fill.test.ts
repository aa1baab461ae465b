/**
 * An upgrade from before migration 8 on a library that holds reports: the new tables are made at start and
 * filled in the background (src/core/db/deferred-fills.ts). The library reads meanwhile, says how far the
 * fill has got, and ends with exactly the rows the shipped migrations fill at start.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDeskDb } from '../../src/core/db/open';
import { MIGRATIONS } from '../../src/core/db/migrations';
import { migrationStatements, schemaOf } from '../../src/core/db/deferred-fills';
import { SnapshotStore } from '../../src/core/library/snapshots';
import { INDEX_STEP } from '../../src/core/library/search-index';
import { deskDbAtVersion, indexingUntilDone, tempDir } from './helpers';
import { REPORTS, version7Library } from './version7-library';

/** The rows the shipped migrations 8 and 10 fill, as the tables hold them. */
function filledRows(db: Database.Database) {
  return {
    facts: db.prepare('SELECT * FROM snapshot_facts ORDER BY text_id').all(),
    topics: db.prepare('SELECT * FROM snapshot_topics ORDER BY text_id, topic').all(),
    dates: db
      .prepare(
        `SELECT created_at, text_id, handle, model, post_count, spent_atomic FROM snapshot_filters
         ORDER BY text_id`,
      )
      .all(),
  };
}

describe('an upgrade that fills new tables', () => {
  it('leaves only the filling statements of migrations 8 and 10 to the background', () => {
    for (const version of [8, 10]) {
      const sql = MIGRATIONS[version - 1]!;
      const all = migrationStatements(sql);
      const schema = migrationStatements(schemaOf(sql));
      expect(
        all.filter((statement) => !schema.includes(statement)).every((s) => s.startsWith('INSERT')),
      ).toBe(true);
      expect(schema.some((statement) => statement.startsWith('CREATE TABLE'))).toBe(true);
      expect(all.length - schema.length).toBe(version === 8 ? 2 : 1);
    }
  });

  it('reads at once, says how far the fill has got, and ends as the shipped migrations would', async () => {
    const data = tempDir('desk-upgrade-');
    const file = path.join(data.dir, 'desk.db');
    const reference = path.join(data.dir, 'reference.db');
    try {
      version7Library(file);
      copyFileSync(file, reference);
      // The reference: every shipped entry run whole, at start, as before.
      const whole = deskDbAtVersion(reference, 0);
      for (const sql of MIGRATIONS.slice(7)) whole.exec(sql);
      const expected = filledRows(whole);
      whole.close();
      expect(expected.dates).toHaveLength(REPORTS);

      const { db } = openDeskDb(file);
      try {
        expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
        expect(filledRows(db).facts).toHaveLength(0);
        const store = new SnapshotStore(db);
        const first = store.page({ limit: 10 });
        expect(first.total).toBe(REPORTS);
        // One step filled before the page (as long as the background pass's), newest keys first: the newest
        // reports show.
        const filled = first.indexing?.indexed ?? 0;
        expect(first.indexing?.total).toBe(REPORTS);
        expect(filled).toBeGreaterThan(0);
        expect(filled).toBeLessThanOrEqual(INDEX_STEP);
        expect(first.items.map((item) => item.id)).toEqual(
          Array.from({ length: Math.min(10, filled) }, (_, i) => `r${REPORTS - i}`),
        );
        // Orders read from the reports themselves are whole meanwhile.
        expect(store.page({ sort: 'purchased', limit: REPORTS }).items).toHaveLength(REPORTS);
        const seen = await indexingUntilDone(store);
        expect(seen).toEqual([...seen].sort((a, b) => a - b));
        expect(filledRows(db)).toEqual(expected);
        expect(store.page({ limit: 10 }).indexing).toBeUndefined();
      } finally {
        db.close();
      }
    } finally {
      data.remove();
    }
  });
});
