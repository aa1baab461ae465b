/** Library copies in backups/: before a migration, bounded in number, and only a healthy one restored. */
import { describe, expect, it } from 'vitest';
import { closeSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openDeskDb } from '../../src/core/db/open';
import { MIGRATIONS } from '../../src/core/db/migrations';
import { backupLibrary, listLibraryBackups } from '../../src/core/backup/library-backup';
import { buyAll, deskDbAtVersion, deskWithWallet, firstHandle, tempDir } from './helpers';
import { startStack } from '../../src/service/stack';
import { SnapshotStore } from '../../src/core/cache/snapshots';
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

  it('keeps a bounded number of copies and never a replaced keystore', async () => {
    const data = tempDir('desk-rotate-');
    try {
      const folder = path.join(data.dir, 'backups');
      const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
      let at = Date.parse('2026-11-01T00:00:00Z');
      const first = await backupLibrary(db, folder, { reason: 'manual', now: () => new Date(at), keep: 3 });
      writeFileSync(path.join(folder, 'wallet-0x0000000000000000000000000000000000000001-x.json'), '{}');
      for (let i = 0; i < 6; i++) {
        at += 3_600_000;
        await backupLibrary(db, folder, { reason: 'daily', now: () => new Date(at), keep: 3 });
      }
      db.close();
      const left = listLibraryBackups(folder);
      expect(left).toHaveLength(3);
      expect(left[0]!.takenAt).toBe(new Date(at).toISOString());
      expect(left.map((b) => b.file)).not.toContain(first.file);
      expect(readdirSync(folder).filter((name) => name.startsWith('wallet-'))).toHaveLength(1);
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
