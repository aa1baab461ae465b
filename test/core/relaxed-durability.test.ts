/**
 * The durability rule: only commits wrapped in withRelaxedDurability (a team pull's slices, the indexing
 * pass's steps) run at synchronous = NORMAL; the connection is at FULL again before the wrapper returns or
 * throws, so a purchase's commit on it is always FULL; and the automatic checkpoint a pull pauses comes back.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDeskDb, type DeskDb } from '../../src/core/db/open';
import { pauseAutoCheckpoint, withRelaxedDurability } from '../../src/core/db/relaxed-durability';
import { SnapshotStore } from '../../src/core/library/snapshots';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { tempDir } from './helpers';

const FULL = 2;
const NORMAL = 1;

function withDesk(test: (db: DeskDb) => void): void {
  const data = tempDir('desk-durability-');
  const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
  try {
    test(db);
  } finally {
    db.close();
    data.remove();
  }
}

const synchronous = (db: DeskDb) => db.pragma('synchronous', { simple: true });

describe('relaxed durability', () => {
  it('runs the wrapped commit at NORMAL and puts FULL back, also when the commit throws', () => {
    withDesk((db) => {
      expect(synchronous(db)).toBe(FULL);
      expect(withRelaxedDurability(db, () => synchronous(db))).toBe(NORMAL);
      expect(synchronous(db)).toBe(FULL);
      expect(() =>
        withRelaxedDurability(
          db,
          db.transaction(() => {
            db.prepare('UPDATE search_progress SET indexed_up_to = 0 WHERE id = 1').run();
            throw new Error('the disk is full');
          }),
        ),
      ).toThrow('the disk is full');
      expect(synchronous(db)).toBe(FULL);
    });
  });

  it("leaves a caller's transaction, a purchase's say, at FULL", () => {
    withDesk((db) => {
      const inside = db.transaction(() => withRelaxedDurability(db, () => synchronous(db)))();
      expect(inside).toBe(FULL);
      expect(synchronous(db)).toBe(FULL);
    });
  });

  it("indexes a purchase's reports at NORMAL and leaves the connection at FULL", () => {
    withDesk((db) => {
      const store = new SnapshotStore(db);
      const snapshot: IntelReportSnapshot = {
        id: 'r1',
        createdAt: '2026-01-01T00:00:00.000Z',
        model: 'm',
        synthesisSettings: {},
        meta: { postCount: 1, dateRange: null },
        analytics: {},
        narrative: { summary: 'tidal permits' },
        changeSummary: null,
        previousReportId: null,
      };
      db.transaction(() =>
        store.put(
          'http://a.example',
          'ada',
          [{ snapshot, raw: JSON.stringify(snapshot) }],
          null,
          '2026-01-01',
        ),
      )();
      // What each transaction the pass opens will commit at.
      const seen: unknown[] = [];
      const transaction = db.transaction.bind(db);
      db.transaction = ((run: (...args: never[]) => unknown) =>
        transaction((...args: never[]) => {
          seen.push(synchronous(db));
          return run(...args);
        })) as DeskDb['transaction'];
      expect(store.indexPending()).toBe(1);
      expect(seen).toEqual([NORMAL]);
      expect(synchronous(db)).toBe(FULL);
    });
  });

  it('pauses the automatic checkpoint until the last pause on the connection is over', () => {
    withDesk((db) => {
      const autoCheckpoint = () => db.pragma('wal_autocheckpoint', { simple: true });
      expect(autoCheckpoint()).toBe(1000);
      const first = pauseAutoCheckpoint(db);
      const second = pauseAutoCheckpoint(db);
      expect(autoCheckpoint()).toBe(0);
      first();
      first();
      expect(autoCheckpoint()).toBe(0);
      second();
      expect(autoCheckpoint()).toBe(1000);
    });
  });
});
