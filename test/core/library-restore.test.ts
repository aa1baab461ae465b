/**
 * Restoring a backup file (decision 0038): only rows cross, from a file whose schema is what the desk made at
 * its version; the desk keeps its settings, caps, payee pins, chain RPC and purchase requests; the ledger
 * never loses or downgrades a purchase it holds; the file's pending requests are dropped. Real SQLite files,
 * crafted the way an attacker would.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openDeskDb, type DeskDb } from '../../src/core/db/open';
import { MIGRATIONS } from '../../src/core/db/migrations';
import { LibraryBackups } from '../../src/core/backup/scheduler';
import { RESTORE_TABLES } from '../../src/core/backup/restore-library';
import { DeskEvents } from '../../src/core/base/events';
import { SnapshotStore } from '../../src/core/library/snapshots';
import { PurchaseLedger } from '../../src/core/ledger/purchases';
import { SettingsStore } from '../../src/core/settings/settings';
import { blockingPurchase } from '../../src/core/payments/selection-guard';
import type { DeskError } from '../../src/core/base/errors';
import { deskDbAtVersion, tempDir } from './helpers';
import { dispatch } from '../../src/host/dispatch';
import { checkedHandlers } from '../../src/core/handlers/door';
import type { RpcHandlers } from '../../src/shared/rpc';

const SERVICE = 'http://127.0.0.1:8402';
const NOW = Date.parse('2026-11-20T12:00:00Z');

function report(id: string) {
  return {
    id,
    createdAt: '2026-01-01T00:00:00.000Z',
    model: 'm',
    synthesisSettings: {},
    meta: { postCount: 3, dateRange: { from: '2025-12-20', to: '2026-01-01' } },
    analytics: {},
    narrative: { summary: `the words of ${id}` },
    changeSummary: null,
    previousReportId: null,
  };
}

function storeReports(db: DeskDb, handle: string, ids: string[], purchaseId: string | null): void {
  new SnapshotStore(db).put(
    SERVICE,
    handle,
    ids.map((id) => ({ snapshot: report(id), raw: JSON.stringify(report(id)) })),
    purchaseId,
    '2026-11-20T11:00:00.000Z',
  );
}

function addPurchase(db: DeskDb, id: string, state: string, handle = 'acme'): void {
  db.prepare(
    `INSERT INTO purchases (id, service_url, handle, resource, report_count, amount, network, asset, payer,
       pay_to, nonce, valid_before, quote_json, state, report_ids, created_at, updated_at)
     VALUES (?, ?, ?, '/api/intel/report', 2, '10000', 'eip155:31337', '0xasset', '0xpayer', '0xpayee', ?, 0,
       ?, ?, '[]', '2026-11-20T10:00:00.000Z', '2026-11-20T10:00:00.000Z')`,
  ).run(id, SERVICE, handle, `0x${id}`, JSON.stringify({ selection: { kind: 'all' } }), state);
}

let data: ReturnType<typeof tempDir>;
let db: DeskDb;
let backups: LibraryBackups;
let folder: string;

beforeEach(() => {
  data = tempDir('desk-restore-');
  folder = path.join(data.dir, 'backups');
  db = openDeskDb(path.join(data.dir, 'desk.db')).db;
  // This desk: its own caps and chain, a pinned payee, a purchase in doubt, one request waiting.
  new SettingsStore(db, new DeskEvents()).update({
    perPurchaseCapUnits: '5000000',
    dailyCapUnits: '20000000',
    chainRpcUrl: 'http://127.0.0.1:8545',
  });
  db.prepare(`INSERT INTO payee_pins VALUES (?, '0xdesk', '2026-11-01T00:00:00.000Z')`).run(SERVICE);
  addPurchase(db, 'p_doubt', 'in_doubt');
  storeReports(db, 'acme', ['rpt_now_1'], null);
  backups = new LibraryBackups(db, folder, new DeskEvents(), () => NOW);
});

afterEach(async () => {
  await backups.close();
  db.close();
  data.remove();
});

/** A backup file as another desk (or an attacker) made it: a real library at this version, then `craft`. */
function craftedBackup(name: string, craft: (other: DeskDb) => void = () => undefined): string {
  const dir = path.join(data.dir, `made-${name}`);
  mkdirSync(dir);
  const other = openDeskDb(path.join(dir, 'desk.db')).db;
  addPurchase(other, 'p_old', 'completed');
  storeReports(other, 'acme', ['rpt_old_1', 'rpt_old_2'], 'p_old');
  craft(other);
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `desk-20261101T00000000${name.length % 10}Z-manual.db`);
  other.prepare('VACUUM INTO ?').run(file);
  other.close();
  return file;
}

const state = (id: string) =>
  (db.prepare('SELECT state FROM purchases WHERE id = ?').get(id) as { state: string } | undefined)?.state;
const reportIds = () =>
  (db.prepare('SELECT id FROM snapshots ORDER BY id').all() as { id: string }[]).map((row) => row.id);

function expectDeskUnchanged(): void {
  expect(reportIds()).toEqual(['rpt_now_1']);
  expect(state('p_doubt')).toBe('in_doubt');
  expect(db.prepare('SELECT COUNT(*) AS n FROM sqlite_schema WHERE type = ?').get('trigger')).toEqual({
    n: 0,
  });
}

describe('restoring a backup file', () => {
  it("takes the reports and keeps this desk's caps, chain RPC, payee pins, requests and purchases in doubt", async () => {
    const file = craftedBackup('hostile', (other) => {
      new SettingsStore(other, new DeskEvents()).update({
        perPurchaseCapUnits: '1000000000000',
        dailyCapUnits: '1000000000000',
        chainRpcUrl: 'https://rpc.attacker.example',
      });
      other
        .prepare(`INSERT INTO payee_pins VALUES (?, '0xattacker', '2026-11-01T00:00:00.000Z')`)
        .run(SERVICE);
      // The purchase this desk holds in doubt, written off as failed in the file.
      addPurchase(other, 'p_doubt', 'failed');
      other
        .prepare(
          `INSERT INTO purchase_requests (id, service_url, handle, selection_json, include_owned, report_count,
             amount, pay_to, network, state, created_at, expires_at)
           VALUES ('req_1', ?, 'acme', '{"kind":"all"}', 0, 2, '999000000', '0xattacker', 'eip155:31337',
             'pending', '2026-11-20T10:00:00.000Z', '2026-11-27T10:00:00.000Z')`,
        )
        .run(SERVICE);
    });

    const restored = await backups.restoreFrom(file);

    expect(restored).toMatchObject({ reports: 2, purchasesAdded: 1, requestsDropped: 1, file });
    expect(reportIds()).toEqual(['rpt_old_1', 'rpt_old_2']);
    const settings = new SettingsStore(db, new DeskEvents()).get();
    expect(settings).toMatchObject({
      perPurchaseCapUnits: '5000000',
      dailyCapUnits: '20000000',
      chainRpcUrl: 'http://127.0.0.1:8545',
    });
    expect(db.prepare('SELECT pay_to FROM payee_pins').all()).toEqual([{ pay_to: '0xdesk' }]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM purchase_requests').get()).toEqual({ n: 0 });
    // The purchase in doubt stays in doubt, so buying the same reports again is still refused.
    expect(state('p_doubt')).toBe('in_doubt');
    expect(state('p_old')).toBe('completed');
    const ledger = new PurchaseLedger(db, () => new Date(NOW));
    expect(
      blockingPurchase(ledger, { serviceUrl: SERVICE, handle: 'acme', selection: { kind: 'all' } }),
    ).toMatchObject({ code: 'purchase_in_doubt' });
    // The restored reports are found by search once the pass has indexed them again.
    const store = new SnapshotStore(db);
    store.indexPending();
    expect(
      db.prepare(`SELECT rowid FROM snapshot_search WHERE snapshot_search MATCH 'rpt_old_2'`).all(),
    ).toHaveLength(1);
  });

  it("has search's word list follow the restored reports, not the ones they replaced", async () => {
    const store = new SnapshotStore(db);
    await store.vocabulary.ready();
    expect(store.vocabulary.expand('zeb')).toEqual([]);
    const file = craftedBackup('words', (other) => {
      other.exec('DELETE FROM snapshots');
      storeReports(other, 'acme', ['zebra_first', 'rpt_old_2'], 'p_old');
    });
    await backups.restoreFrom(file);
    // What the restore handler tells the library in this process.
    store.reportsReplaced();
    store.indexPending();
    await store.vocabulary.ready();
    expect(store.vocabulary.expand('zeb')).toEqual(['zebra']);
  });

  it('keeps a purchase the backup never knew (an older backup cannot lose it)', async () => {
    const file = craftedBackup('older');
    await backups.restoreFrom(file);
    expect(state('p_doubt')).toBe('in_doubt');
  });

  const foreign: [string, string][] = [
    [
      'a trigger',
      `CREATE TRIGGER settle_it AFTER UPDATE ON purchases BEGIN
         UPDATE purchases SET state = 'failed' WHERE state = 'in_doubt'; END`,
    ],
    ['a table', 'CREATE TABLE extra (x TEXT)'],
    ['a view', 'CREATE VIEW everything AS SELECT * FROM purchases'],
    ['an index', 'CREATE INDEX purchases_by_payer ON purchases(payer)'],
    ['a changed definition', 'ALTER TABLE settings ADD COLUMN note TEXT'],
    ['a missing index', 'DROP INDEX purchases_by_state'],
  ];
  for (const [what, sql] of foreign)
    it(`refuses a file with ${what} the desk never made, and changes nothing`, async () => {
      const file = craftedBackup(what.replace(/\W/g, ''), (other) => other.exec(sql));
      const refusal = await backups.restoreFrom(file).then(
        () => null,
        (error: unknown) => error as DeskError,
      );
      expect(refusal?.code).toBe('backup_schema_foreign');
      expect(refusal?.message).toMatch(
        /schema is not what Intel Desk made at its version .*Nothing was changed/,
      );
      expectDeskUnchanged();
      // Nothing was staged left behind beside desk.db, and no safety copy was taken for a refusal.
      expect(readdirSync(data.dir).filter((name) => name.startsWith('.restoring-'))).toEqual([]);
      expect(readdirSync(folder).filter((name) => name.endsWith('-restore.db'))).toEqual([]);
    });

  it('refuses rows this library would not take (a state the ledger does not know, a report of no purchase)', async () => {
    for (const [name, craft] of [
      [
        'badstate',
        (other: DeskDb) => {
          other.pragma('ignore_check_constraints = ON');
          addPurchase(other, 'p_odd', 'settled-by-trigger');
        },
      ],
      [
        'orphan',
        (other: DeskDb) => {
          other.pragma('foreign_keys = OFF');
          other.prepare(`UPDATE snapshots SET purchase_id = 'p_nowhere' WHERE id = 'rpt_old_1'`).run();
        },
      ],
    ] as const) {
      const file = craftedBackup(name, craft);
      const refusal = await backups.restoreFrom(file).then(
        () => null,
        (error: unknown) => error as DeskError,
      );
      expect(refusal?.code).toBe('backup_unusable');
      expect(refusal?.message).toMatch(/its rows do not fit this library .*Nothing was changed/);
      expectDeskUnchanged();
    }
  });

  for (const version of [1, 4, 9, 14])
    it(`restores a backup of version ${version}, migrated apart from the library`, async () => {
      mkdirSync(folder, { recursive: true });
      const file = path.join(folder, `desk-20261001T0000000${String(version).padStart(2, '0')}Z-daily.db`);
      const old = deskDbAtVersion(file, version);
      old
        .prepare(`INSERT INTO settings (key, value) VALUES ('chainRpcUrl', '"https://rpc.attacker.example"')`)
        .run();
      old.close();
      const restored = await backups.restoreFrom(file);
      expect(restored.reports).toBe(0);
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      expect(new SettingsStore(db, new DeskEvents()).get().chainRpcUrl).toBe('http://127.0.0.1:8545');
      expect(state('p_doubt')).toBe('in_doubt');
      // The backup itself is left as it was.
      const kept = new Database(file, { readonly: true });
      expect(kept.pragma('user_version', { simple: true })).toBe(version);
      kept.close();
    });

  it('restores a backup of a library born at version 1 and upgraded since, as real desks are', async () => {
    const dir = path.join(data.dir, 'born-old');
    mkdirSync(dir);
    const old = deskDbAtVersion(path.join(dir, 'desk.db'), 1);
    old
      .prepare(
        `INSERT INTO snapshots (id, handle, created_at, model, raw_json, stored_at)
         VALUES ('rpt_v1', 'acme', '2026-01-01T00:00:00.000Z', 'm', ?, '2026-01-02T00:00:00.000Z')`,
      )
      .run(JSON.stringify(report('rpt_v1')));
    old.close();
    const upgraded = openDeskDb(path.join(dir, 'desk.db')).db;
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'desk-20261002T000000000Z-manual.db');
    upgraded.prepare('VACUUM INTO ?').run(file);
    upgraded.close();
    expect((await backups.restoreFrom(file)).reports).toBe(1);
    expect(reportIds()).toEqual(['rpt_v1']);
  });

  it('names what every table of the schema does in a restore', () => {
    const tables = (
      db
        .prepare(
          `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             AND name NOT LIKE 'snapshot_search_%' ORDER BY name`,
        )
        .all() as { name: string }[]
    ).map((row) => row.name);
    expect(Object.keys(RESTORE_TABLES).sort()).toEqual(tables);
  });
});

describe('what a window may ask of a restore', () => {
  it('cannot name a path: picking a file is for the hosts, and restore takes a name in backups/ or a token', async () => {
    let called = 0;
    // Behind core's door, as a DeskCore's handlers are: dispatch leaves the input to it.
    const handlers = checkedHandlers(
      new Proxy({} as RpcHandlers, {
        get: () => async () => {
          called++;
          return null;
        },
      }),
    );
    const pick = await dispatch(handlers, 'library.pickRestoreFile', { file: '/etc/passwd' });
    expect(pick).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    for (const input of [
      { from: '/etc/passwd' },
      { backup: '../../desk.db' },
      { backup: '/tmp/desk-20261101T000000000Z-manual.db' },
      { picked: '/etc/passwd' },
    ])
      expect(await dispatch(handlers, 'library.restore', input)).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      });
    expect(called).toBe(0);
    expect(
      await dispatch(handlers, 'library.restore', { backup: 'desk-20261101T000000000Z-manual.db' }),
    ).toMatchObject({ ok: true });
  });
});
