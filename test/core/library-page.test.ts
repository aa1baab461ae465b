import { describe, expect, it } from 'vitest';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openDeskDb } from '../../src/core/db/open';
import { MIGRATIONS } from '../../src/core/db/migrations';
import { SnapshotStore } from '../../src/core/library/snapshots';
import { RANKED } from '../../src/core/library/library-search';
import { libraryMethods, type LibraryItem } from '../../src/shared/rpc';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import { deskDbAtVersion, tempDir } from './helpers';

const SERVICE = 'http://a.example';

function snapshot(id: string, summary: string, createdAt: string): IntelReportSnapshot {
  return {
    id,
    createdAt,
    model: 'm',
    synthesisSettings: {},
    meta: { postCount: 3, dateRange: null },
    analytics: {},
    narrative: { summary },
    changeSummary: null,
    previousReportId: null,
  };
}

function tempStore(): { store: SnapshotStore; db: Database.Database; remove(): void } {
  const data = tempDir('desk-library-');
  const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
  return {
    store: new SnapshotStore(db),
    db,
    remove: () => {
      db.close();
      data.remove();
    },
  };
}

function withStore(run: (store: SnapshotStore, db: Database.Database) => void): void {
  const { store, db, remove } = tempStore();
  try {
    run(store, db);
  } finally {
    remove();
  }
}

async function withStoreAsync(run: (store: SnapshotStore, db: Database.Database) => Promise<void>) {
  const { store, db, remove } = tempStore();
  try {
    await run(store, db);
  } finally {
    remove();
  }
}

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();

function putReport(
  store: SnapshotStore,
  db: Database.Database,
  handle: string,
  id: string,
  summary: string,
  created: number,
  purchaseId: string | null = null,
): void {
  const snap = snapshot(id, summary, day(created));
  db.transaction(() =>
    store.put(
      SERVICE,
      handle,
      [{ snapshot: snap, raw: JSON.stringify(snap) }],
      purchaseId,
      day(100 + created),
    ),
  )();
}

function purchase(db: Database.Database, id: string, amount: string, reports: number): void {
  db.prepare(
    `INSERT INTO purchases (id, service_url, handle, resource, report_count, amount, network, asset, payer,
       pay_to, nonce, valid_before, quote_json, state, report_ids, created_at, updated_at)
     VALUES (?, ?, 'Ada', '/r', ?, ?, 'eip155:8453', '0xa', '0xb', '0xc', ?, 0, '{}', 'completed', '[]',
       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
  ).run(id, SERVICE, reports, amount, `0x${id}`);
}

function allPages(store: SnapshotStore, request: Parameters<SnapshotStore['page']>[0]): LibraryItem[][] {
  const pages: LibraryItem[][] = [];
  let cursor: string | undefined;
  do {
    const page = store.page({ ...request, cursor });
    pages.push(page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return pages;
}

describe('library pages', () => {
  it('pages newest first by key, and a report stored meanwhile neither repeats nor hides a row', () => {
    withStore((store, db) => {
      for (let i = 0; i < 25; i++) putReport(store, db, `h${i % 3}`, `r${i}`, `report ${i}`, i);
      const first = store.page({ limit: 10 });
      expect(first.total).toBe(25);
      expect(first.items.map((item) => item.id)).toEqual(Array.from({ length: 10 }, (_, i) => `r${24 - i}`));
      // A newer and an older report arrive while the person scrolls.
      putReport(store, db, 'h0', 'new', 'newest', 50);
      putReport(store, db, 'h0', 'old', 'oldest', -5);
      const rest: string[] = [];
      let cursor = first.nextCursor ?? undefined;
      while (cursor !== undefined) {
        const page = store.page({ limit: 10, cursor });
        rest.push(...page.items.map((item) => item.id));
        cursor = page.nextCursor ?? undefined;
      }
      expect(rest).toEqual([...Array.from({ length: 15 }, (_, i) => `r${14 - i}`), 'old']);
    });
  });

  it('sums what the library cost exactly, past what a float holds', () => {
    withStore((store, db) => {
      // 2^53 - 1 and 2 base units: a float sum (SQLite's TOTAL) would say 9007199254740992.
      purchase(db, 'big', '9007199254740991', 1);
      purchase(db, 'small', '2', 1);
      putReport(store, db, 'Ada', 'r1', 'a', 1, 'big');
      putReport(store, db, 'Ada', 'r2', 'b', 2, 'small');
      const page = store.page({ limit: 10 });
      expect(page.totalSpentUnits).toBe('9007199254740993');
      expect(page.items.map((item) => item.spentUnits)).toEqual(['2', '9007199254740991']);
    });
  });

  it('compares a typed dollar figure with what a report cost exactly: $1.005 is not more than $1.005', () => {
    withStore((store, db) => {
      // 1.005 * 10^6 is 1004999.9999999999 in floating point, which 1005000 base units are more than.
      purchase(db, 'exact', '1005000', 1);
      purchase(db, 'cheaper', '1004999', 1);
      putReport(store, db, 'Ada', 'at', 'a', 1, 'exact');
      putReport(store, db, 'Ada', 'below', 'b', 2, 'cheaper');
      const ids = (text: string) =>
        store.searchPage({ text, limit: 10, offset: 0 }).hits.map((hit) => hit.id);
      expect(ids('spent>1.005')).toEqual([]);
      expect(ids('spent>=1.005')).toEqual(['at']);
      expect(ids('spent<1.005')).toEqual(['below']);
      expect(ids('spent<=0.0000001')).toEqual([]);
      expect(ids('spent<100000000000000000000')).toEqual(['below', 'at']);
    });
  });

  it('sorts by handle and by what was spent, filters by handle, and sums the spending', () => {
    withStore((store, db) => {
      purchase(db, 'p1', '30000', 3);
      purchase(db, 'p2', '50000', 1);
      putReport(store, db, 'Zed', 'z1', 'a', 1, 'p1');
      putReport(store, db, 'Zed', 'z2', 'b', 2, 'p1');
      putReport(store, db, 'Ada', 'a1', 'c', 3, 'p1');
      putReport(store, db, 'Ada', 'a2', 'd', 4, 'p2');
      putReport(store, db, 'bob', 'b1', 'e', 5);
      const byHandle = allPages(store, { sort: 'handle', limit: 2 }).flat();
      expect(byHandle.map((item) => [item.handle, item.id])).toEqual([
        ['ada', 'a1'],
        ['ada', 'a2'],
        ['bob', 'b1'],
        ['zed', 'z1'],
        ['zed', 'z2'],
      ]);
      expect(byHandle[0]!.username).toBe('Ada');
      const bySpent = allPages(store, { sort: 'spent', limit: 3 }).flat();
      expect(bySpent.map((item) => [item.id, item.spentUnits])).toEqual([
        ['a2', '50000'],
        ['a1', '10000'],
        ['z2', '10000'],
        ['z1', '10000'],
        ['b1', '0'],
      ]);
      const ada = store.page({ handle: 'ADA', limit: 10 });
      expect(ada.items.map((item) => item.id)).toEqual(['a2', 'a1']);
      expect(ada.total).toBe(2);
      expect(ada.totalSpentUnits).toBe('60000');
      expect(store.page({ limit: 1 }).totalSpentUnits).toBe('80000');
      // Filters judge the price each report was stored with, held from its put or read back after a restart.
      const spentOver = (usd: string) =>
        store.searchPage({ text: `spent>${usd}`, limit: 10, offset: 0 }).hits.map((hit) => hit.id);
      expect(spentOver('0.02')).toEqual(['a2']);
      expect(spentOver('0')).toEqual(['a2', 'a1', 'z2', 'z1']);
      expect(store.page({ sort: 'date', order: 'asc', limit: 2 }).items.map((item) => item.id)).toEqual([
        'z1',
        'z2',
      ]);
      store.nameHandles(SERVICE, new Map([['ada', 'Ada Lindqvist']]));
      expect(store.page({ handle: 'ada', limit: 1 }).items[0]!.displayName).toBe('Ada Lindqvist');
      expect(store.handles().map((h) => [h.handle, h.displayName, h.reports])).toEqual([
        ['ada', 'Ada Lindqvist', 2],
        ['bob', null, 1],
        ['zed', null, 2],
      ]);
      expect(() => store.page({ sort: 'handle', limit: 2, cursor: 'not-a-cursor' })).toThrow(
        /start again from the first page/,
      );
      const dateCursor = store.page({ limit: 1 }).nextCursor!;
      expect(() => store.page({ sort: 'spent', limit: 1, cursor: dateCursor })).toThrow(/first page/);
    });
  });
});

describe('library pages by offset', () => {
  it('gives the page at an offset in every order, as the cursor chain reaches it', () => {
    withStore((store, db) => {
      for (let i = 0; i < 7; i++)
        putReport(store, db, ['ada', 'bob', 'cy'][i % 3]!, `r${i}`, `report ${i}`, i);
      for (const sort of ['date', 'handle', 'purchased', 'spent'] as const) {
        const chained: string[] = [];
        let cursor: string | undefined;
        do {
          const page = store.page({ sort, limit: 2, cursor });
          chained.push(...page.items.map((item) => item.id));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        for (let offset = 0; offset < 8; offset += 2) {
          const page = store.page({ sort, limit: 2, offset });
          expect(page.items.map((item) => item.id)).toEqual(chained.slice(offset, offset + 2));
          expect(page.total).toBe(7);
          expect(page.nextCursor === null).toBe(offset + 2 >= 7);
        }
      }
      expect(store.page({ handle: 'ada', limit: 2, offset: 2 }).items.map((item) => item.id)).toEqual(['r0']);
    });
  });

  it('refuses a cursor and an offset together at the contract', () => {
    const input = libraryMethods['library.list'].input;
    expect(input.safeParse({ limit: 2, offset: 400 }).success).toBe(true);
    const both = input.safeParse({ limit: 2, offset: 400, cursor: 'abc' });
    expect(both.success).toBe(false);
    expect(both.error?.issues[0]?.message).toBe('Ask for a page by its cursor or by its offset, not both.');
    expect(input.safeParse({ limit: 2, offset: -1 }).success).toBe(false);
    expect(input.safeParse({ limit: 2, offset: 1.5 }).success).toBe(false);
  });
});

describe('handle names from the shelf', () => {
  it("keeps the shelf's names for the handles owned from its service, and writes only what changed", () => {
    withStore((store, db) => {
      putReport(store, db, 'ada', 'a1', 'one', 1);
      putReport(store, db, 'bob', 'b1', 'two', 2);
      const names = () =>
        db.prepare('SELECT service_url, handle, display_name FROM handle_names ORDER BY 1, 2').raw().all();
      const changes = () => db.prepare('SELECT total_changes()').pluck().get() as number;
      db.prepare('INSERT INTO handle_names VALUES (?, ?, ?)').run(
        'http://other.example',
        'ada',
        'Ada Elsewhere',
      );

      store.nameHandles(
        SERVICE,
        new Map([
          ['ada', 'Ada Lindqvist'],
          ['bob', 'Bob Ng'],
          ['cy', 'Cy Not Owned'],
        ]),
      );
      expect(names()).toEqual([
        [SERVICE, 'ada', 'Ada Lindqvist'],
        [SERVICE, 'bob', 'Bob Ng'],
        ['http://other.example', 'ada', 'Ada Elsewhere'],
      ]);
      // The same shelf again (every start fetches it): nothing is written.
      const before = changes();
      store.nameHandles(
        SERVICE,
        new Map([
          ['ada', 'Ada Lindqvist'],
          ['bob', 'Bob Ng'],
        ]),
      );
      expect(changes()).toBe(before);
      // A renamed handle is renamed; one the shelf no longer names is forgotten; another service's stay.
      store.nameHandles(SERVICE, new Map([['ada', 'Ada L.']]));
      expect(changes()).toBe(before + 2);
      expect(names()).toEqual([
        [SERVICE, 'ada', 'Ada L.'],
        ['http://other.example', 'ada', 'Ada Elsewhere'],
      ]);
      // The handles of a service come from an index, not from every report row.
      const plan = db
        .prepare('EXPLAIN QUERY PLAN SELECT DISTINCT handle FROM snapshots WHERE service_url = ?')
        .all(SERVICE) as { detail: string }[];
      expect(plan.map((step) => step.detail).join(' ')).toContain('COVERING INDEX snapshots_by_service');
    });
  });
});

describe('owned handles', () => {
  it('are counted again after a purchase here, a rename, or a write by another process', () => {
    const data = tempDir('desk-handles-');
    const file = path.join(data.dir, 'desk.db');
    const here = openDeskDb(file).db;
    const cli = openDeskDb(file).db;
    try {
      const store = new SnapshotStore(here);
      const count = () => store.handles().map((h) => [h.handle, h.displayName, h.reports]);
      putReport(store, here, 'ada', 'a1', 'one', 1);
      expect(count()).toEqual([['ada', null, 1]]);
      expect(store.handles()).toBe(store.handles());
      putReport(store, here, 'ada', 'a2', 'two', 2);
      expect(count()).toEqual([['ada', null, 2]]);
      store.nameHandles(SERVICE, new Map([['ada', 'Ada Lindqvist']]));
      expect(count()).toEqual([['ada', 'Ada Lindqvist', 2]]);
      // A CLI run on the same library buys a report of another handle.
      putReport(new SnapshotStore(cli), cli, 'bob', 'b1', 'three', 3);
      expect(count()).toEqual([
        ['ada', 'Ada Lindqvist', 2],
        ['bob', null, 1],
      ]);
      // A purchase whose transaction rolls back leaves the count as it was, even if it was read meanwhile.
      expect(() =>
        here.transaction(() => {
          putReport(store, here, 'cy', 'c1', 'four', 4);
          expect(count()).toHaveLength(3);
          throw new Error('the purchase failed');
        })(),
      ).toThrow('the purchase failed');
      expect(count()).toHaveLength(2);
    } finally {
      here.close();
      cli.close();
      data.remove();
    }
  });
});

describe('library search', () => {
  it('matches prefix* words as prefixes and quoted words as phrases, best first, with a count', () => {
    withStore((store, db) => {
      putReport(store, db, 'a', 'once', 'Battery prices rose. Other news.', 1);
      putReport(store, db, 'a', 'thrice', 'Battery battery battery: supply of batteries', 2);
      putReport(store, db, 'b', 'phrase', 'The supply chain of lithium', 3);
      putReport(store, db, 'b', 'apart', 'Chain of custody; supply was short', 4);
      const prefix = store.searchPage({ text: 'batt*', limit: 10, offset: 0 });
      expect(prefix.hits.map((hit) => hit.id)).toEqual(['thrice', 'once']);
      expect(prefix.count).toBe(2);
      expect(prefix.countCapped).toBe(false);
      const phrase = store.searchPage({ text: '"supply chain"', limit: 10, offset: 0 });
      expect(phrase.hits.map((hit) => hit.id)).toEqual(['phrase']);
      expect(phrase.hits[0]!.snippet).toBe('The \u0001supply chain\u0002 of lithium');
      expect(phrase.terms).toEqual(['"supply chain"']);
      const words = store.searchPage({ text: 'supply chain', limit: 10, offset: 0 });
      expect(words.hits.map((hit) => hit.id).sort()).toEqual(['apart', 'phrase']);
      const paged = store.searchPage({ text: 'supply', limit: 1, offset: 1 });
      expect(paged.hits).toHaveLength(1);
      expect(paged.count).toBe(3);
      expect(store.searchPage({ text: 'supply', handle: 'B', limit: 10, offset: 0 }).count).toBe(2);
      expect(store.search('"battery battery"')[0]!.snippet).toContain(
        '\u0001Battery battery\u0002 battery: supply',
      );
    });
  });

  it('finds with a typed prefix exactly what FTS5 finds, once the index words are read and as reports arrive', async () => {
    const data = tempDir('desk-words-');
    const { db } = openDeskDb(path.join(data.dir, 'desk.db'));
    try {
      const store = new SnapshotStore(db);
      const texts = [
        'Regulation of regulators: regular filings',
        'Crème brûlée and a naïve école',
        'İstanbul Straße Ångström Σίσυφος 東京 2026q3',
        'Cafe\u0301 society, e\u0301cole normale',
      ];
      texts.forEach((text, i) => putReport(store, db, 'a', `r${i}`, text, i));
      const ids = (text: string) =>
        store
          .searchPage({ text, limit: 50, offset: 0 })
          .hits.map((hit) => hit.id)
          .sort();
      const byFts = (prefix: string) =>
        db
          .prepare<[string], { rowid: number }>(
            'SELECT rowid FROM snapshot_search WHERE snapshot_search MATCH ?',
          )
          .all(`"${prefix}"*`)
          .map((row) => `r${row.rowid - 1}`)
          .sort();
      await store.vocabulary.ready();
      // Stored after the words were read: kept up to date from the reports indexed.
      putReport(store, db, 'b', 'r4', 'Regulatory ångströms in the café', 5);
      putReport(store, db, 'b', 'r5', 'Ecological straßen', 6);
      const words = [...texts, 'Regulatory ångströms in the café', 'Ecological straßen']
        .join(' ')
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu)!;
      const prefixes = new Set(
        words.flatMap((word) => [...word].map((_, n) => [...word].slice(0, n + 1).join(''))),
      );
      let expanded = 0;
      for (const prefix of prefixes) {
        // The search itself indexes what is pending, so FTS5 is asked after it.
        const found = ids(`${prefix}*`);
        expect(found, prefix).toEqual(byFts(prefix));
        if (store.vocabulary.expand(prefix) !== null) expanded++;
      }
      expect(expanded).toBe(prefixes.size);
      expect(ids('regul*')).toEqual(['r0', 'r4']);
      expect(store.vocabulary.expand('regul')).toEqual(['regular', 'regulation', 'regulators', 'regulatory']);
    } finally {
      db.close();
      data.remove();
    }
  });

  it('finds by a typed prefix the words of reports another process indexed', async () => {
    await withStoreAsync(async (store, db) => {
      putReport(store, db, 'a', 'r1', 'Regulation of tides', 1);
      await store.vocabulary.ready();
      expect(store.vocabulary.expand('regul')).toEqual(['regulation']);
      // A CLI run on the same library stores and indexes a report with a new word of that prefix.
      const { db: other } = openDeskDb(db.name);
      try {
        const cli = new SnapshotStore(other);
        putReport(cli, other, 'b', 'r2', 'Regulators met', 2);
        cli.indexPending();
      } finally {
        other.close();
      }
      const found = store.searchPage({ text: 'regul', limit: 10, offset: 0, prefixLast: true });
      expect(found.hits.map((hit) => hit.id).sort()).toEqual(['r1', 'r2']);
    });
  });

  it('ranks a few matches by bm25 and gives more than it ranks most recently bought first', () => {
    withStore((store, db) => {
      putReport(store, db, 'a', 'once', 'Solar once', 1);
      putReport(store, db, 'a', 'thrice', 'Solar solar solar', 2);
      expect(store.searchPage({ text: 'solar', limit: 5, offset: 0 })).toMatchObject({
        order: 'best',
        hits: [{ id: 'thrice' }, { id: 'once' }],
      });
      db.transaction(() => {
        for (let i = 0; i < RANKED; i++) {
          const snap = snapshot(`bulk${i}`, i === 10 ? 'Solar solar solar solar' : 'Solar', day(i % 300));
          store.put(SERVICE, 'b', [{ snapshot: snap, raw: JSON.stringify(snap) }], null, day(500));
        }
      })();
      const many = store.searchPage({ text: 'solar', limit: 3, offset: 0 });
      expect(many).toMatchObject({ order: 'bought', count: RANKED, countCapped: true });
      expect(many.hits.map((hit) => hit.id)).toEqual([
        `bulk${RANKED - 1}`,
        `bulk${RANKED - 2}`,
        `bulk${RANKED - 3}`,
      ]);
      expect(store.searchPage({ text: 'solar handle:a', limit: 5, offset: 0 }).order).toBe('best');
      expect(store.searchPage({ text: 'handle:a', limit: 5, offset: 0 }).order).toBe('newest');
    });
  });

  it('pages and searches an indexed library while another process holds the write lock', () => {
    withStore((store, db) => {
      putReport(store, db, 'a', 'r1', 'Tidal energy', 1);
      store.indexPending();
      db.pragma('busy_timeout = 50');
      // As a CLI run on the same library does while it stores a purchase.
      const other = new Database(db.name);
      try {
        other.prepare('BEGIN IMMEDIATE').run();
        expect(store.page({ limit: 10 }).items.map((item) => item.id)).toEqual(['r1']);
        expect(store.searchPage({ text: 'tidal', limit: 10, offset: 0 }).hits.map((hit) => hit.id)).toEqual([
          'r1',
        ]);
        other.prepare('ROLLBACK').run();
      } finally {
        other.close();
      }
    });
  });

  it('indexes reports stored by an earlier run that stopped before indexing them', () => {
    const data = tempDir('desk-pending-');
    const file = path.join(data.dir, 'desk.db');
    try {
      const first = openDeskDb(file).db;
      const store = new SnapshotStore(first);
      putReport(store, first, 'a', 'r1', 'Geothermal permits', 1);
      // Closed before the scheduled indexing ran, as when the app quits right after a purchase.
      first.close();
      const { db } = openDeskDb(file);
      try {
        expect(new SnapshotStore(db).search('geotherm*').map((hit) => hit.id)).toEqual(['r1']);
      } finally {
        db.close();
      }
    } finally {
      data.remove();
    }
  });

  it('migrates a version-4 library with its search text, prices and handles as bought', () => {
    const data = tempDir('desk-v4-');
    const file = path.join(data.dir, 'desk.db');
    try {
      const old = deskDbAtVersion(file, 4);
      purchase(old, 'p1', '20000', 2);
      const insert = old.prepare(
        `INSERT INTO snapshots (service_url, id, handle, created_at, model, raw_json, purchase_id, stored_at, text_id)
         VALUES (?, ?, 'ada', ?, 'm', ?, ?, '2026-02-01T00:00:00.000Z', ?)`,
      );
      const text = old.prepare('INSERT INTO snapshot_fts (rowid, body) VALUES (?, ?)');
      insert.run(SERVICE, 'r1', day(1), JSON.stringify(snapshot('r1', 'Battery supply', day(1))), 'p1', 7);
      text.run(7, 'Battery supply');
      insert.run(SERVICE, 'r2', day(2), JSON.stringify(snapshot('r2', 'Wind permits', day(2))), null, 9);
      text.run(9, 'Wind permits');
      old.close();

      const { db } = openDeskDb(file);
      try {
        expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
        const store = new SnapshotStore(db);
        expect(store.search('battery').map((hit) => hit.id)).toEqual(['r1']);
        expect(store.search('"wind permits"').map((hit) => hit.id)).toEqual(['r2']);
        const page = store.page({ limit: 10 });
        expect(page.items.map((item) => [item.id, item.username, item.spentUnits])).toEqual([
          ['r2', 'ada', '0'],
          ['r1', 'Ada', '10000'],
        ]);
        expect(page.totalSpentUnits).toBe('10000');
        // Reports stored after the migration are indexed too, and a re-stored one replaces its text.
        putReport(store, db, 'ada', 'r3', 'Solar tariffs', 3);
        putReport(store, db, 'ada', 'r1', 'Geothermal drilling', 1);
        expect(store.search('solar').map((hit) => hit.id)).toEqual(['r3']);
        expect(store.search('battery')).toEqual([]);
        expect(store.search('geothermal').map((hit) => hit.id)).toEqual(['r1']);
      } finally {
        db.close();
      }
    } finally {
      data.remove();
    }
  });
});
