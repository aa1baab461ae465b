/**
 * Putting a backup's library back (decision 0038). A backup file is data, never the desk: its schema must be
 * exactly what this desk's migrations made at its version (no trigger, view, table or index of its own, no
 * changed definition), and only rows cross, table by table, into desk.db's own tables. The reports and what a
 * person wrote about them come from the file; the settings (caps, chain RPC), payee pins, budgets, purchase
 * requests and caches stay this desk's; the ledger keeps every purchase this desk holds as it is and gains
 * only purchases it never knew. What is derived from the reports (search words, facts, date order) is rebuilt
 * by the indexing pass.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DeskError } from '../base/errors';
import type { DeskErrorCode } from '../../shared/error-codes';
import { libraryFileProblem, migrate, type DeskDb } from '../db/open';
import { foreignSchema } from '../db/schema-check';
import { createPrivateFile } from '../db/backups-folder';

/**
 * What a restore does with each table: `file`, taken from the backup; `ledger`, this desk's rows kept and the
 * backup's added where this desk has none; `desk`, this desk's alone; `rebuilt`, emptied for the indexing
 * pass. Every table the migrations make is named here (a test holds the list to the schema).
 */
export const RESTORE_TABLES = {
  snapshots: 'file',
  handle_names: 'file',
  report_tags: 'file',
  report_notes: 'file',
  saved_searches: 'file',
  dossier_drafts: 'file',
  team_reports: 'file',
  purchases: 'ledger',
  kept_payments: 'ledger',
  settings: 'desk',
  payee_pins: 'desk',
  handle_budgets: 'desk',
  purchase_requests: 'desk',
  reservations: 'desk',
  shelf_cache: 'desk',
  menu_cache: 'desk',
  shelf_checks: 'desk',
  team_membership: 'desk',
  team_purchases: 'desk',
  snapshot_search: 'rebuilt',
  snapshot_facts: 'rebuilt',
  snapshot_topics: 'rebuilt',
  snapshot_filters: 'rebuilt',
  search_progress: 'rebuilt',
  upgrade_fill: 'rebuilt',
} as const satisfies Record<string, 'file' | 'ledger' | 'desk' | 'rebuilt'>;

type Table = keyof typeof RESTORE_TABLES;
/** What names a row of the ledger: a purchase the desk holds under it is never replaced. */
const LEDGER_KEYS = { purchases: 'id', kept_payments: 'purchase_id' } as const;
const tablesOf = (kind: 'file' | 'ledger') =>
  (Object.keys(RESTORE_TABLES) as Table[]).filter((table) => RESTORE_TABLES[table] === kind);

export interface RestoreOutcome {
  reports: number;
  /** Purchases the backup held that this desk's ledger did not, added to it. */
  purchasesAdded: number;
  /** The backup's purchase requests (from an assistant, over MCP), which are never carried over. */
  requestsDropped: number;
}

const refusedFile = (file: string, code: DeskErrorCode, why: string) =>
  new DeskError(
    code,
    `${file} cannot be restored: ${why}. Nothing was changed; the library is as it was.`,
    'usage',
    { file },
  );

/**
 * A checked working copy of the backup, at this desk's version, in a private folder beside desk.db. Read
 * through SQLite (not copied as bytes) so a file left in WAL mode gives its committed content.
 */
export async function stageBackup(
  source: string,
  libraryFile: string,
  nativeBinding?: string,
): Promise<{ file: string; remove(): void }> {
  const problem = libraryFileProblem(source, { nativeBinding });
  if (problem) throw refusedFile(source, 'backup_unusable', problem);
  const folder = mkdtempSync(path.join(path.dirname(libraryFile), '.restoring-'));
  const remove = () => rmSync(folder, { recursive: true, force: true });
  try {
    if (process.platform !== 'win32') chmodSync(folder, 0o700);
    const file = path.join(folder, 'backup.db');
    createPrivateFile(file);
    const options = { ...(nativeBinding ? { nativeBinding } : {}) };
    const backup = new Database(source, { ...options, readonly: true, fileMustExist: true });
    try {
      await backup.backup(file);
    } finally {
      backup.close();
    }
    const staged = new Database(file, options);
    try {
      const version = staged.pragma('user_version', { simple: true }) as number;
      const foreign = foreignSchema(staged, version, nativeBinding);
      if (foreign.length > 0)
        throw refusedFile(
          source,
          'backup_schema_foreign',
          `its schema is not what Intel Desk made at its version (${version}): ${foreign.slice(0, 4).join('; ')}${foreign.length > 4 ? `; and ${foreign.length - 4} more` : ''}`,
        );
      // A backup of an older version is brought up to this one here, never in desk.db.
      migrate(staged, { backupFirst: false });
      return { file, remove };
    } finally {
      staged.close();
    }
  } catch (error) {
    remove();
    if (error instanceof DeskError) throw error;
    throw refusedFile(source, 'backup_unusable', `it could not be read (${(error as Error).message})`);
  }
}

const columnsOf = (db: DeskDb, table: Table) =>
  db
    .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}', 'main')`)
    .all()
    .map((column) => `"${column.name}"`)
    .join(', ');

/**
 * Moves the staged backup's rows into desk.db in one transaction, which holds the write lock throughout: a
 * purchase another process records meanwhile waits, and lands in the ledger after it, never lost.
 */
export function restoreRows(db: DeskDb, staged: string): RestoreOutcome {
  db.prepare(`ATTACH DATABASE ? AS restore_source`).run(staged);
  try {
    return db
      .transaction((): RestoreOutcome => {
        const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
        const requestsDropped = count(
          `SELECT COUNT(*) AS n FROM restore_source.purchase_requests WHERE state IN ('pending', 'approving')`,
        );
        const before = count('SELECT COUNT(*) AS n FROM main.purchases');
        // The derived rows go; the pass rebuilds them from every report, from the first key.
        db.exec(`INSERT INTO snapshot_search (snapshot_search) VALUES ('delete-all');
          DELETE FROM snapshot_facts; DELETE FROM snapshot_topics; DELETE FROM snapshot_filters;
          UPDATE search_progress SET indexed_up_to = 0 WHERE id = 1;
          UPDATE upgrade_fill SET pending_up_to = 0 WHERE id = 1;
          UPDATE team_membership SET pulled_up_to = 0;`);
        // (The team's reports the file lacks come back at the next sync, which pulls from the first again.)
        for (const table of tablesOf('file')) db.exec(`DELETE FROM main.${table}`);
        // Purchases first: reports name the purchase that stored them. A purchase this desk holds is never
        // changed by a file, in whatever state the file has it (an in-doubt one stays in doubt).
        for (const table of [...tablesOf('ledger'), ...tablesOf('file')]) {
          const columns = columnsOf(db, table);
          // Not INSERT OR IGNORE: that would also skip a row that breaks a CHECK; here such a row refuses.
          const key = LEDGER_KEYS[table as keyof typeof LEDGER_KEYS];
          const unknown = key ? ` WHERE ${key} NOT IN (SELECT ${key} FROM main.${table})` : '';
          db.exec(
            `INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM restore_source.${table}${unknown}`,
          );
        }
        return {
          reports: count('SELECT COUNT(*) AS n FROM main.snapshots'),
          purchasesAdded: count('SELECT COUNT(*) AS n FROM main.purchases') - before,
          requestsDropped,
        };
      })
      .immediate();
  } finally {
    db.prepare('DETACH DATABASE restore_source').run();
  }
}
