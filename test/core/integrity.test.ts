/**
 * Corruption checks off the critical path, on a real library file: bytes overwritten in a page deep in the
 * reports leave the start fast and unaware, then the background check finds the damage (the window is told, the
 * file marked), a read that meets the page says so in words instead of a SQLite error, and the next start runs
 * the whole check, sets the file aside and puts the newest good backup in its place.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createDeskCore, type DeskCore } from '../../src/core';
import { openDeskDb } from '../../src/core/db/open';
import { SnapshotStore } from '../../src/core/library/snapshots';
import { reportCorpus } from '../../bench/corpus';
import { closedPortUrl } from '../closed-port';
import { tempDir } from './helpers';
import { damageReportsPage } from '../damage-library';

const REPORTS = 400;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function library(indexed = true): Promise<{ dir: string; file: string }> {
  const made = tempDir('desk-integrity-');
  cleanups.push(made.remove);
  const file = path.join(made.dir, 'desk.db');
  const { db } = openDeskDb(file);
  const store = new SnapshotStore(db);
  db.transaction(() => {
    for (const { handle, snapshot, raw } of reportCorpus(REPORTS))
      store.put('http://127.0.0.1:1', handle, [{ snapshot, raw }], null, '2026-11-20T00:00:00.000Z');
  })();
  if (indexed) store.indexPending();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { dir: made.dir, file };
}

async function open(dir: string, firstCheckAfterMs = 60_000): Promise<DeskCore> {
  const desk = await createDeskCore({
    dataDir: dir,
    serviceUrl: await closedPortUrl(),
    integrity: { firstAfterMs: firstCheckAfterMs },
  });
  cleanups.push(() => desk.close());
  return desk;
}

describe('the library file checked off the critical path', () => {
  it('starts without reading the whole file, then finds deep damage in the background', async () => {
    const { dir, file } = await library();
    const keeper = await open(dir);
    await keeper.handlers['library.backup']({});
    await keeper.close();
    damageReportsPage(file, 'middle');

    const desk = await open(dir, 0);
    const found = new Promise<void>((resolve) => {
      const stop = desk.events.on((event) => {
        if (event.type === 'library.damaged') {
          stop();
          resolve();
        }
      });
    });
    await found;
    const info = await desk.handlers['app.info']({});
    expect(info.libraryDamaged?.reason).toMatch(/integrity check failed/);
    expect(info.databaseRecovered).toBeUndefined();
    expect(existsSync(`${file}.damaged`)).toBe(true);

    // Listing every report meets the page: a clear error, not SQLite's.
    await expect(desk.handlers['library.list']({})).rejects.toMatchObject({
      code: 'library_damaged',
      message: expect.stringMatching(/The library file is damaged .*newest good backup/),
    });
    await desk.close();

    // The next start checks the whole file, sets it aside and restores the backup.
    const next = await open(dir);
    const restored = (await next.handlers['app.info']({})).databaseRecovered;
    expect(restored?.reason).toMatch(/integrity check failed/);
    expect(restored?.restored?.reports).toBe(REPORTS);
    expect(existsSync(`${file}.damaged`)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith('desk.db.corrupt-'))).toHaveLength(1);
    expect((await next.handlers['library.list']({ limit: 1 })).total).toBe(REPORTS);
  });

  it('the background indexing pass meets the damage: marked and said, and core goes on', async () => {
    // A library whose reports wait to be indexed, as after an upgrade or a crash mid-purchase.
    const { dir, file } = await library(false);
    damageReportsPage(file, 'middle');
    const desk = await open(dir, 60_000);
    await new Promise<void>((resolve) => {
      const stop = desk.events.on((event) => {
        if (event.type !== 'library.damaged') return;
        stop();
        resolve();
      });
      void desk.handlers['app.info']({}).then((info) => {
        if (info.libraryDamaged) resolve();
      });
    });
    expect(existsSync(`${file}.damaged`)).toBe(true);
    expect((await desk.handlers['app.info']({})).libraryDamaged?.reason).toMatch(/malformed/);
    // Core is still there for everything the damaged page does not hold.
    expect((await desk.handlers['wallet.status']({})).address).toBeNull();
    await expect(desk.handlers['library.list']({})).rejects.toMatchObject({ code: 'library_damaged' });
  });

  it('a whole library passes the background check and nothing is said', async () => {
    const { dir, file } = await library();
    const desk = await open(dir, 60_000);
    const { IntegrityWatch } = await import('../../src/core/db/integrity');
    const said: string[] = [];
    const watch = new IntegrityWatch(file, (reason) => said.push(reason), Date.now);
    expect(await watch.checkNow()).toBeNull();
    expect(said).toEqual([]);
    expect((await desk.handlers['app.info']({})).libraryDamaged).toBeUndefined();
    expect(existsSync(`${file}.damaged`)).toBe(false);
  });
});
