/**
 * Whether a library file's schema is the one this desk's migrations make at its version (decision 0038): a
 * backup with a trigger, view, table or index of its own, or a changed definition, is not restored, neither
 * by a person nor at start in place of a damaged desk.db.
 */
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';
import type { DeskDb } from './desk-db';

interface SchemaRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** SQL as written, without differences of spacing or identifier quoting that SQLite versions may make. */
const normalised = (sql: string | null) =>
  (sql ?? '')
    .replace(/["`[\]]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

function schemaOf(db: DeskDb): Map<string, SchemaRow> {
  const rows = db
    .prepare<[], SchemaRow>('SELECT type, name, tbl_name, sql FROM main.sqlite_schema ORDER BY type, name')
    .all();
  return new Map(rows.map((row) => [`${row.type} ${row.name}`, row]));
}

/** The schema this desk's migrations make at `version`, in a database of its own in memory. */
function schemaAtVersion(version: number, nativeBinding: string | undefined): Map<string, SchemaRow> {
  const reference = new Database(':memory:', nativeBinding ? { nativeBinding } : {});
  try {
    // As migrate() runs them on a desk.
    reference.pragma('foreign_keys = ON');
    for (const migration of MIGRATIONS.slice(0, version)) reference.exec(migration);
    return schemaOf(reference);
  } finally {
    reference.close();
  }
}

/** How the file's schema differs from what the migrations made at its version, in words; empty when it does not. */
export function foreignSchema(db: DeskDb, version: number, nativeBinding?: string): string[] {
  const expected = schemaAtVersion(version, nativeBinding);
  const found = schemaOf(db);
  const differences: string[] = [];
  for (const [key, row] of found) {
    const ours = expected.get(key);
    if (!ours) differences.push(`a ${row.type} "${row.name}" Intel Desk never makes`);
    else if (normalised(ours.sql) !== normalised(row.sql) || ours.tbl_name !== row.tbl_name)
      differences.push(`the ${row.type} "${row.name}" defined differently`);
  }
  for (const [key, row] of expected) if (!found.has(key)) differences.push(`no ${row.type} "${row.name}"`);
  return differences;
}
