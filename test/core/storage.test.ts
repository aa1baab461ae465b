import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { openDeskDb, APPLICATION_ID } from '../../src/core/db/open';
import { MIGRATIONS } from '../../src/core/db/migrations';
import { topLevelArrayElements } from '../../src/core/library/json-slices';
import { SnapshotStore } from '../../src/core/library/snapshots';
import { compileSearch } from '../../src/core/library/search-compile';
import { parseQuery } from '../../src/core/library/search-syntax';
import { DeskError } from '../../src/core/base/errors';
import { createDeskCore } from '../../src/core';
import { deskDbAtVersion, tempDir } from './helpers';
import { seeded } from './property-seed';
import { closedPortUrl } from '../closed-port';
import type { IntelReportSnapshot } from '../../src/shared/wire';

const SERVICE = 'http://127.0.0.1:8402';

function snapshot(id: string, summary: string, createdAt = '2026-01-01T00:00:00.000Z'): IntelReportSnapshot {
  return {
    id,
    createdAt,
    model: 'm',
    synthesisSettings: {},
    meta: { postCount: 3, dateRange: { from: '2025-12-20', to: '2026-01-01' } },
    analytics: {},
    narrative: { summary },
    changeSummary: null,
    previousReportId: null,
  };
}

describe('desk.db health', () => {
  it('moves a corrupted file aside, reports it, and starts a fresh database', async () => {
    const data = tempDir('desk-corrupt-');
    try {
      const file = path.join(data.dir, 'desk.db');
      writeFileSync(file, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4096, 0x5a)]));
      const desk = await createDeskCore({ dataDir: data.dir, serviceUrl: await closedPortUrl() });
      const info = await desk.handlers['app.info']({});
      expect(info.databaseRecovered?.reason).toMatch(/database|integrity/);
      expect(existsSync(info.databaseRecovered!.path)).toBe(true);
      expect(readFileSync(info.databaseRecovered!.path).subarray(16, 20)).toEqual(Buffer.alloc(4, 0x5a));
      expect((await desk.handlers['library.list']({})).items).toEqual([]);
      await desk.close();
    } finally {
      data.remove();
    }
  });

  it("refuses to adopt another program's SQLite file, and keeps it", () => {
    const data = tempDir('desk-foreign-');
    try {
      const file = path.join(data.dir, 'desk.db');
      const foreign = new Database(file);
      foreign.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')");
      foreign.close();
      const opened = openDeskDb(file);
      expect(opened.movedAside?.reason).toMatch(/another program/);
      opened.db.close();
      const kept = new Database(opened.movedAside!.path, { readonly: true });
      expect(kept.prepare('SELECT text FROM notes').get()).toEqual({ text: 'keep me' });
      kept.close();
      const reopened = openDeskDb(file);
      expect(reopened.movedAside).toBeNull();
      expect(reopened.db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
      reopened.db.close();
      expect(readdirSync(data.dir).filter((name) => name.includes('corrupt'))).toHaveLength(1);
    } finally {
      data.remove();
    }
  });
});

describe('snapshots', () => {
  it('keeps each report byte-for-byte as the service sent it', () => {
    const text =
      '{"username":"a","reports":[ {"id":"r1","x":"a\\"]}"} ,\n{"id":"r2","n":[1,{"b":2}]}],"tail":{"reports":[]}}';
    expect(topLevelArrayElements(text, 'reports')).toEqual([
      '{"id":"r1","x":"a\\"]}"}',
      '{"id":"r2","n":[1,{"b":2}]}',
    ]);
    expect(topLevelArrayElements('{"other":[1]}', 'reports')).toBeNull();
  });

  it('finds array elements exactly for any JSON (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 6 }), fc.jsonValue(), (reports, other) => {
        const text = JSON.stringify({ other, reports }, null, 1);
        const slices = topLevelArrayElements(text, 'reports');
        expect(slices?.map((slice) => JSON.parse(slice))).toEqual(JSON.parse(text).reports);
      }),
      seeded(100),
    );
  });

  it('stores and indexes a paid snapshot nested far deeper than the stack allows recursion', () => {
    const data = tempDir('desk-deep-');
    const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
    try {
      let nested: unknown = 'bottomword at the very end';
      let nestedJson = JSON.stringify(nested);
      for (let depth = 0; depth < 100_000; depth++) {
        nested = depth % 2 ? { level: nested } : [nested];
        nestedJson = depth % 2 ? `{"level":${nestedJson}}` : `[${nestedJson}]`;
      }
      const deep = { ...snapshot('deep1', 'Top summary'), changeSummary: { text: 'shallow', nested } };
      // The service's bytes, as deep as the parsed value (JSON.stringify itself would recurse).
      const raw = JSON.stringify({ ...deep, changeSummary: null }).replace(
        '"changeSummary":null',
        `"changeSummary":{"text":"shallow","nested":${nestedJson}}`,
      );
      const store = new SnapshotStore(db);
      db.transaction(() =>
        store.put(SERVICE, 'someone', [{ snapshot: deep, raw }], null, '2026-01-01T00:00:00.000Z'),
      )();
      expect(store.search('bottomword').map((hit) => hit.id)).toEqual(['deep1']);
      expect(store.search('shallow').map((hit) => hit.id)).toEqual(['deep1']);
    } finally {
      db.close();
      data.remove();
    }
  });

  it("replaces a re-stored snapshot's text instead of adding to it", () => {
    const data = tempDir('desk-restore-');
    const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
    try {
      const store = new SnapshotStore(db);
      const put = (summary: string) =>
        db.transaction(() =>
          store.put(
            SERVICE,
            'someone',
            [{ snapshot: snapshot('r1', summary), raw: JSON.stringify(snapshot('r1', summary)) }],
            null,
            '2026-01-01T00:00:00.000Z',
          ),
        )();
      put('Original wording about turbines');
      put('Corrected wording about batteries');
      expect(store.search('turbines')).toEqual([]);
      expect(store.search('batteries').map((hit) => hit.id)).toEqual(['r1']);
      expect(db.prepare('SELECT count(*) AS n FROM snapshot_search_docsize').get()).toEqual({ n: 1 });
    } finally {
      db.close();
      data.remove();
    }
  });

  it('finds a report by its topics and figures after a crash between the purchase and its indexing', () => {
    const data = tempDir('desk-facts-');
    const file = path.join(data.dir, 'desk.db');
    const analysed = (topic: string, score: number): IntelReportSnapshot => ({
      ...snapshot('r1', 'Grid storage'),
      analytics: { topicShare: [{ label: topic, share: 1 }], sentimentSeries: [{ score }] },
    });
    const found = (store: SnapshotStore, text: string) =>
      store.searchPage({ text, limit: 10, offset: 0 }).hits.map((hit) => hit.id);
    const first = openDeskDb(file).db;
    const stored = analysed('Energy Policy', -0.4);
    new SnapshotStore(first).put(
      SERVICE,
      'someone',
      [{ snapshot: stored, raw: JSON.stringify(stored) }],
      null,
      'x',
    );
    // The process dies before the indexing pass that follows the purchase's commit.
    first.close();
    const { db } = openDeskDb(file);
    try {
      const store = new SnapshotStore(db);
      expect(found(store, 'topic:"energy policy"')).toEqual(['r1']);
      expect(found(store, 'sentiment<0')).toEqual(['r1']);
      // Bought again after it was indexed: the new copy's topics and figures replace the old ones.
      const again = analysed('Trade', 0.5);
      db.transaction(() =>
        store.put(SERVICE, 'someone', [{ snapshot: again, raw: JSON.stringify(again) }], null, 'y'),
      )();
      expect(found(store, 'topic:"energy policy"')).toEqual([]);
      expect(found(store, 'topic:trade AND sentiment>0')).toEqual(['r1']);
      expect(found(store, 'sentiment<0')).toEqual([]);
    } finally {
      db.close();
      data.remove();
    }
  });

  it('indexes the text the transaction committed when a put is rolled back', () => {
    const data = tempDir('desk-rollback-');
    const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
    try {
      const store = new SnapshotStore(db);
      const put = (id: string, summary: string, fail = false) =>
        db.transaction(() => {
          const stored = snapshot(id, summary);
          store.put(
            SERVICE,
            'someone',
            [{ snapshot: stored, raw: JSON.stringify(stored) }],
            null,
            '2026-01-01',
          );
          if (fail) throw new Error('the purchase failed after storing');
        })();
      // A new report rolled back: its key goes to the next report, which is indexed with its own text.
      expect(() => put('r1', 'Rolled back turbines', true)).toThrow('the purchase failed');
      put('r2', 'Committed batteries');
      // A committed report, re-stored in a transaction that rolls back before it is indexed.
      put('r3', 'Committed glaciers');
      expect(() => put('r3', 'Rolled back volcanoes', true)).toThrow('the purchase failed');
      expect(store.search('turbines')).toEqual([]);
      expect(store.search('volcanoes')).toEqual([]);
      expect(store.search('batteries').map((hit) => hit.id)).toEqual(['r2']);
      expect(store.search('glaciers').map((hit) => hit.id)).toEqual(['r3']);
    } finally {
      db.close();
      data.remove();
    }
  });

  it('carries the search text of a version-2 library into the rowid-keyed index', () => {
    const data = tempDir('desk-v2-');
    const file = path.join(data.dir, 'desk.db');
    const old = deskDbAtVersion(file, 2);
    for (const [id, body] of [
      ['r1', 'Battery supply chains'],
      ['r2', 'Wind turbine permits'],
    ]) {
      old
        .prepare(
          `INSERT INTO snapshots (id, handle, created_at, model, raw_json, stored_at)
           VALUES (?, 'someone', '2026-01-01T00:00:00.000Z', 'm', '{}', '2026-01-01T00:00:00.000Z')`,
        )
        .run(id);
      old.prepare("INSERT INTO snapshot_text (id, handle, body) VALUES (?, 'someone', ?)").run(id, body);
    }
    old.close();
    const { db } = openDeskDb(file);
    try {
      const store = new SnapshotStore(db);
      expect(store.search('turbine').map((hit) => hit.id)).toEqual(['r2']);
      expect(store.search('battery').map((hit) => hit.id)).toEqual(['r1']);
      db.transaction(() =>
        store.put(
          SERVICE,
          'someone',
          [
            {
              snapshot: snapshot('r1', 'Solar tariffs'),
              raw: JSON.stringify(snapshot('r1', 'Solar tariffs')),
            },
          ],
          null,
          '2026-01-02T00:00:00.000Z',
        ),
      )();
      expect(store.search('battery')).toEqual([]);
      expect(store.search('solar').map((hit) => hit.id)).toEqual(['r1']);
    } finally {
      db.close();
      data.remove();
    }
  });

  it('keys a version-3 library by service: rows go to the service of the purchase that stored them', () => {
    const data = tempDir('desk-v3-');
    const file = path.join(data.dir, 'desk.db');
    const old = deskDbAtVersion(file, 3);
    old.prepare("INSERT INTO settings (key, value) VALUES ('serviceUrl', ?)").run('"http://b.example/"');
    old
      .prepare(
        `INSERT INTO purchases (id, service_url, handle, resource, report_count, amount, network, asset, payer,
           pay_to, nonce, valid_before, quote_json, state, report_ids, created_at, updated_at)
         VALUES ('p1', 'http://a.example', 'someone', '/r', 1, '10000', 'eip155:8453', '0xa', '0xb', '0xc',
           '0x1', 0, '{}', 'completed', '["r1"]', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      )
      .run();
    const insert = old.prepare(
      `INSERT INTO snapshots (id, handle, created_at, model, raw_json, purchase_id, stored_at, text_id)
       VALUES (?, 'someone', '2026-01-01T00:00:00.000Z', 'm', ?, ?, '2026-01-01T00:00:00.000Z', ?)`,
    );
    const text = old.prepare('INSERT INTO snapshot_fts (rowid, body) VALUES (?, ?)');
    insert.run('r1', '{"from":"a"}', 'p1', 1);
    text.run(1, 'Battery supply chains');
    insert.run('r2', '{"from":"unknown"}', null, 2);
    text.run(2, 'Wind turbine permits');
    old.close();

    const { db } = openDeskDb(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      const store = new SnapshotStore(db);
      expect(store.ownedIds('http://a.example', 'someone')).toEqual(new Set(['r1']));
      // No purchase to go by: the service configured when the library was migrated.
      expect(store.ownedIds('http://b.example', 'someone')).toEqual(new Set(['r2']));
      expect(store.search('battery').map((hit) => [hit.id, hit.serviceUrl])).toEqual([
        ['r1', 'http://a.example'],
      ]);
      expect(store.search('turbine').map((hit) => hit.id)).toEqual(['r2']);
      // The same id from another service is another report, kept beside the first.
      const solarFromC = JSON.stringify({ ...snapshot('r1', 'Solar tariffs'), from: 'c' });
      db.transaction(() =>
        store.put(
          'http://c.example',
          'someone',
          [{ snapshot: snapshot('r1', 'Solar tariffs'), raw: solarFromC }],
          null,
          '2026-01-02T00:00:00.000Z',
        ),
      )();
      expect(store.raw('r1', 'http://a.example', '')?.raw).toBe('{"from":"a"}');
      expect(store.raw('r1', 'http://c.example', '')?.raw).toBe(solarFromC);
      expect(store.raw('r1', null, 'http://c.example')?.serviceUrl).toBe('http://c.example');
      expect(store.search('battery').map((hit) => hit.serviceUrl)).toEqual(['http://a.example']);
      expect(store.search('solar').map((hit) => hit.serviceUrl)).toEqual(['http://c.example']);
      expect(store.list('someone')).toHaveLength(3);
    } finally {
      db.close();
      data.remove();
    }
  });

  it('carries a version-9 library into date order, indexed or not, and sorts a report stored a moment ago', () => {
    const data = tempDir('desk-v9-');
    const file = path.join(data.dir, 'desk.db');
    const old = deskDbAtVersion(file, 9);
    const insert = old.prepare(
      `INSERT INTO snapshots (text_id, service_url, id, handle, username, created_at, model, post_count, raw_json,
         stored_at) VALUES (?, ?, ?, 'someone', 'someone', ?, 'm', ?, ?, '2026-01-05T00:00:00.000Z')`,
    );
    const days = ['2026-01-02', '2026-01-04', '2026-01-01'];
    days.forEach((day, i) => {
      const stored = snapshot(`r${i + 1}`, `Report ${i + 1} about tariffs`, `${day}T00:00:00.000Z`);
      insert.run(i + 1, SERVICE, stored.id, stored.createdAt, 10 * (i + 1), JSON.stringify(stored));
    });
    // Version 9 indexed the first two; the third was stored when the app stopped.
    old.prepare("INSERT INTO snapshot_search (rowid, body) VALUES (1, 'Report 1 about tariffs')").run();
    old.prepare("INSERT INTO snapshot_search (rowid, body) VALUES (2, 'Report 2 about tariffs')").run();
    old.prepare('UPDATE search_progress SET indexed_up_to = 2').run();
    old.prepare("INSERT INTO report_tags VALUES (?, 'r3', 'watch', '2026-01-05')").run(SERVICE);
    old.close();

    const { db } = openDeskDb(file);
    try {
      const store = new SnapshotStore(db);
      const newest = () => store.page({ limit: 2 });
      const ids = (hits: { id: string }[]) => hits.map((hit) => hit.id);
      const first = newest();
      expect(ids(first.items)).toEqual(['r2', 'r1']);
      expect(ids(store.page({ limit: 2, cursor: first.nextCursor! }).items)).toEqual(['r3']);
      expect(ids(store.searchPage({ text: 'posts>=20', limit: 10, offset: 0 }).hits)).toEqual(['r2', 'r3']);
      expect(ids(store.searchPage({ text: 'tariffs tag:watch', limit: 10, offset: 0 }).hits)).toEqual(['r3']);
      // Stored and listed in the same moment: the page does not wait for the indexing pass to come round.
      const latest = snapshot('r4', 'Fresh', '2026-02-01T00:00:00.000Z');
      db.transaction(() =>
        store.put(SERVICE, 'someone', [{ snapshot: latest, raw: JSON.stringify(latest) }], null, 'now'),
      )();
      expect(ids(newest().items)).toEqual(['r4', 'r2']);
      expect(ids(store.list())).toEqual(['r4', 'r2', 'r1', 'r3']);
    } finally {
      db.close();
      data.remove();
    }
  });

  it('turns any user text into a safe full-text query (property)', () => {
    const data = tempDir('desk-fts-');
    const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
    try {
      const store = new SnapshotStore(db);
      db.transaction(() =>
        store.put(
          SERVICE,
          'someone',
          [
            {
              snapshot: snapshot('r1', 'Battery supply chains in Kraków'),
              raw: JSON.stringify(snapshot('r1', 'Battery supply chains in Kraków')),
            },
          ],
          null,
          '2026-01-01T00:00:00.000Z',
        ),
      )();
      expect(store.search('battery kraków').map((hit) => hit.id)).toEqual(['r1']);
      expect(store.search('batt*')).toHaveLength(1);
      // Any text either searches or is refused as a syntax error naming its column: never an SQLite error.
      fc.assert(
        fc.property(fc.string({ maxLength: 40 }), (text) => {
          try {
            store.search(text);
          } catch (error) {
            expect(error).toBeInstanceOf(DeskError);
            expect((error as DeskError).code).toBe('search_syntax');
            expect((error as DeskError).message).toMatch(/column \d+/);
          }
        }),
        seeded(100),
      );
      expect(compileSearch(parseQuery('"); DROP TABLE x; --"'))?.match).toBe('("drop table x")');
      expect(compileSearch(parseQuery('DROP* TABLE^ x NEAR'))?.match).toBe(
        '("drop"* AND "table" AND "x" AND "near")',
      );
      expect(() => parseQuery('); DROP* TABLE^ x NEAR(')).toThrow('Unexpected ")" at column 1');
    } finally {
      db.close();
      data.remove();
    }
  });
});
