/** Library copies in backups/: before a migration, bounded in number, and only a healthy one restored. */
import { describe, expect, it } from 'vitest';
import { closeSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openDeskDb } from '../../src/core/db/open';
import { MIGRATIONS } from '../../src/core/db/migrations';
import {
  backupLibrary,
  backupLibraryNow,
  DEFAULT_KEEP,
  listLibraryBackups,
} from '../../src/core/db/library-backup';
import { DAY_MS, LibraryBackups } from '../../src/core/backup/scheduler';
import { DeskEvents } from '../../src/core/base/events';
import { buyAll, deskDbAtVersion, deskWithWallet, firstHandle, tempDir } from './helpers';
import { startStack } from '../../src/service/stack';
import { SnapshotStore } from '../../src/core/library/snapshots';
import { createDeskCore } from '../../src/core';
import { closedPortUrl } from '../closed-port';

const SERVICE = 'http://127.0.0.1:8402';

describe('library backups', () => {
  it('copies a library of an older version into backups/ before migrating it', () => {
    const data = tempDir('desk-premigration-');
    try {
      const file = path.join(data.dir, 'desk.db');
      const old = deskDbAtVersion(file, 9);
      old.prepare(`INSERT INTO settings (key, value) VALUES ('theme', '"dark"')`).run();
      old.close();
      const { db } = openDeskDb(file);
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      db.close();
      const [copy, ...more] = listLibraryBackups(path.join(data.dir, 'backups'));
      expect(more).toEqual([]);
      expect(copy?.reason).toBe('migration');
      expect(statSync(copy!.file).mode & 0o777).toBe(0o600);
      const kept = new Database(copy!.file, { readonly: true });
      expect(kept.pragma('user_version', { simple: true })).toBe(9);
      expect(kept.prepare(`SELECT value FROM settings WHERE key = 'theme'`).get()).toEqual({
        value: '"dark"',
      });
      kept.close();
      // An up-to-date library is not copied again on each start.
      openDeskDb(file).db.close();
      expect(listLibraryBackups(path.join(data.dir, 'backups'))).toHaveLength(1);
    } finally {
      data.remove();
    }
  });

  it('keeps a bounded number of copies of each kind, and never a replaced keystore', async () => {
    const data = tempDir('desk-rotate-');
    try {
      const folder = path.join(data.dir, 'backups');
      const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
      let at = Date.parse('2026-11-01T00:00:00Z');
      const first = await backupLibrary(db, folder, {
        reason: 'manual',
        now: () => new Date(at),
        keep: { manual: 3 },
      });
      writeFileSync(path.join(folder, 'wallet-0x0000000000000000000000000000000000000001-x.json'), '{}');
      for (let i = 0; i < 6; i++) {
        at += 3_600_000;
        await backupLibrary(db, folder, { reason: 'daily', now: () => new Date(at), keep: { daily: 3 } });
      }
      db.close();
      const left = listLibraryBackups(folder);
      expect(left.filter((b) => b.reason === 'daily')).toHaveLength(3);
      expect(left[0]!.takenAt).toBe(new Date(at).toISOString());
      // Another kind's copies never push out the one manual copy.
      expect(left.map((b) => b.file)).toContain(first.file);
      expect(readdirSync(folder).filter((name) => name.startsWith('wallet-'))).toHaveLength(1);
    } finally {
      data.remove();
    }
  });

  it('keeps the daily and pre-upgrade copies through a burst of purchases (issue 44)', async () => {
    const data = tempDir('desk-rotate-kinds-');
    try {
      const folder = path.join(data.dir, 'backups');
      const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
      let at = Date.parse('2026-11-01T00:00:00Z');
      const now = () => new Date(at);
      const upgrade = backupLibraryNow(db, folder, { reason: 'migration', now });
      const days: string[] = [];
      for (let day = 0; day < 3; day++) {
        at += DAY_MS;
        days.push((await backupLibrary(db, folder, { reason: 'daily', now })).file);
      }
      // Eleven purchases in two minutes: each leaves a copy.
      for (let i = 0; i < 11; i++) {
        at += 11_000;
        await backupLibrary(db, folder, { reason: 'purchase', now });
      }
      db.close();
      const left = listLibraryBackups(folder);
      expect(left.filter((b) => b.reason === 'daily').map((b) => b.file)).toEqual(days.reverse());
      expect(left.filter((b) => b.reason === 'migration').map((b) => b.file)).toEqual([upgrade.file]);
      const purchases = left.filter((b) => b.reason === 'purchase');
      expect(purchases).toHaveLength(DEFAULT_KEEP.purchase);
      expect(purchases[0]!.takenAt).toBe(new Date(at).toISOString());
    } finally {
      data.remove();
    }
  });

  it('takes the daily copy when the last daily one is a day old, however recent the purchase copies', async () => {
    const data = tempDir('desk-daily-kinds-');
    try {
      const folder = path.join(data.dir, 'backups');
      const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
      let at = Date.parse('2026-11-01T00:00:00Z');
      const scheduled = new LibraryBackups(db, folder, new DeskEvents(), () => at);
      try {
        await backupLibrary(db, folder, { reason: 'daily', now: () => new Date(at) });
        at += DAY_MS + 1;
        await backupLibrary(db, folder, { reason: 'purchase', now: () => new Date(at - 60_000) });
        await scheduled.dailyIfDue();
        const daily = listLibraryBackups(folder).filter((b) => b.reason === 'daily');
        expect(daily.map((b) => b.takenAt)).toEqual([new Date(at).toISOString(), '2026-11-01T00:00:00.000Z']);
        // Not again the same day.
        at += 60_000;
        await scheduled.dailyIfDue();
        expect(listLibraryBackups(folder).filter((b) => b.reason === 'daily')).toHaveLength(2);
      } finally {
        await scheduled.close();
        db.close();
      }
    } finally {
      data.remove();
    }
  });

  it('skips a damaged backup at start and starts empty when none is good, the damaged file kept aside', () => {
    const data = tempDir('desk-no-good-backup-');
    try {
      const file = path.join(data.dir, 'desk.db');
      openDeskDb(file).db.close();
      const folder = path.join(data.dir, 'backups');
      mkdirSync(folder);
      // A backup in name only: the bytes are not a library.
      const fake = path.join(folder, 'desk-20261101T000000000Z-daily.db');
      writeFileSync(fake, Buffer.alloc(8192, 0x5a));
      const fd = openSync(file, 'r+');
      writeSync(fd, Buffer.alloc(3996, 0x5a), 0, 3996, 100);
      closeSync(fd);
      const opened = openDeskDb(file);
      expect(opened.movedAside?.restored).toBeUndefined();
      expect(statSync(opened.movedAside!.path).size).toBeGreaterThan(0);
      expect(opened.db.prepare('SELECT COUNT(*) AS n FROM snapshots').get()).toEqual({ n: 0 });
      opened.db.close();
    } finally {
      data.remove();
    }
  });
});

describe('a damaged library at start', () => {
  it('is not replaced by a backup whose schema Intel Desk never made (a trigger in it)', () => {
    const data = tempDir('desk-foreign-backup-');
    try {
      const file = path.join(data.dir, 'desk.db');
      const { db } = openDeskDb(file);
      const folder = path.join(data.dir, 'backups');
      const good = backupLibraryNow(db, folder, {
        reason: 'daily',
        now: () => new Date('2026-11-01T00:00:00Z'),
      });
      db.exec(`CREATE TRIGGER settle_it AFTER UPDATE ON purchases BEGIN
                 UPDATE purchases SET state = 'failed' WHERE state = 'in_doubt'; END`);
      backupLibraryNow(db, folder, { reason: 'daily', now: () => new Date('2026-11-02T00:00:00Z') });
      db.close();
      const fd = openSync(file, 'r+');
      writeSync(fd, Buffer.alloc(3996, 0x5a), 0, 3996, 100);
      closeSync(fd);
      const opened = openDeskDb(file);
      expect(opened.movedAside?.restored?.file).toBe(good.file);
      expect(
        opened.db.prepare(`SELECT COUNT(*) AS n FROM sqlite_schema WHERE type = 'trigger'`).get(),
      ).toEqual({ n: 0 });
      opened.db.close();
    } finally {
      data.remove();
    }
  });
});

describe('automatic library backups', () => {
  it('copies the library once a day while the desk runs, and not more often', async () => {
    const data = tempDir('desk-daily-');
    try {
      const file = path.join(data.dir, 'desk.db');
      const { db } = openDeskDb(file);
      const report = {
        id: 'rpt_daily_001',
        createdAt: '2026-01-01T00:00:00.000Z',
        model: 'm',
        synthesisSettings: {},
        meta: { postCount: 3, dateRange: { from: '2025-12-20', to: '2026-01-01' } },
        analytics: {},
        narrative: { summary: 'kept' },
        changeSummary: null,
        previousReportId: null,
      };
      new SnapshotStore(db).put(
        SERVICE,
        'daily',
        [{ snapshot: report, raw: JSON.stringify(report) }],
        null,
        '2026-01-01T00:00:00.000Z',
      );
      db.close();
      let now = Date.parse('2026-11-25T00:00:00Z');
      const desk = await createDeskCore({
        dataDir: data.dir,
        serviceUrl: await closedPortUrl(),
        now: () => now,
        backups: { dailyCheckMs: 20 },
      });
      const daily = () =>
        listLibraryBackups(path.join(data.dir, 'backups')).filter((b) => b.reason === 'daily');
      try {
        await expect.poll(() => daily().length, { timeout: 10_000 }).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(daily()).toHaveLength(1);
        now += 25 * 60 * 60 * 1000;
        await expect.poll(() => daily().length, { timeout: 10_000 }).toBe(2);
        expect(daily()[0]!.takenAt).toBe(new Date(now).toISOString());
      } finally {
        await desk.close();
      }
      const copy = new Database(daily()[0]!.file, { readonly: true });
      expect(copy.prepare('SELECT id FROM snapshots').all()).toEqual([{ id: 'rpt_daily_001' }]);
      copy.close();
    } finally {
      data.remove();
    }
  });
});

describe('a backup after a purchase', () => {
  it('is taken shortly after the reports are stored, while the desk keeps running', async () => {
    const stack = await startStack({ seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 } });
    const data = tempDir('desk-after-purchase-');
    try {
      const { desk } = await deskWithWallet(stack, data.dir, 0, { backups: { afterPurchaseMs: 50 } });
      try {
        const { outcome } = await buyAll(desk, (await firstHandle(stack)).handle);
        expect(outcome.status).toBe('completed');
        const folder = path.join(data.dir, 'backups');
        await expect
          .poll(() => listLibraryBackups(folder).filter((b) => b.reason === 'purchase').length, {
            timeout: 10_000,
          })
          .toBe(1);
        const copy = new Database(listLibraryBackups(folder)[0]!.file, { readonly: true });
        expect(copy.prepare('SELECT COUNT(*) AS n FROM snapshots').get()).toEqual({ n: 3 });
        expect(copy.prepare(`SELECT state FROM purchases`).all()).toEqual([{ state: 'completed' }]);
        copy.close();
        expect((await desk.handlers['library.backups']({})).last?.reason).toBe('purchase');
      } finally {
        await desk.close();
      }
    } finally {
      await stack.stop();
      data.remove();
    }
  });
});
