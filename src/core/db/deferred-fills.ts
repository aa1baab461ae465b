/**
 * Upgrades that rewrite data run in the background. Migrations 8 and 10 fill their new tables (facts, topics,
 * date order) from every stored report's JSON: about 10 s at 100k reports, at start, before anything shows.
 * Their entries stay as shipped (frozen); on a library that holds reports, the runner makes their tables and
 * indexes at once and leaves the statements that fill them to the indexing pass, which fills the same rows
 * in the background, newest first, from what migration 14 records (upgrade_fill). A new library, whose
 * tables are empty, runs them whole as before.
 */
import type { DeskDb } from './desk-db';

/** Versions (after the step: 8 is MIGRATIONS[7]) whose filling statements are left to the background pass. */
const DEFERRED_FILLS: ReadonlySet<number> = new Set([8, 10]);

/** The statements of a migration, without its comment lines. */
export function migrationStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((statement) =>
      statement
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter((statement) => statement.length > 0);
}

const fills = (statement: string) => /^INSERT\b/i.test(statement);

/** A deferrable migration without the statements that fill its tables: its schema alone. */
export function schemaOf(sql: string): string {
  return migrationStatements(sql)
    .filter((statement) => !fills(statement))
    .map((statement) => `${statement};`)
    .join('\n');
}

/** What the runner executes for the step to `version`: the whole entry, or its schema when its fill waits. */
export function migrationToRun(db: DeskDb, version: number, sql: string): string {
  if (!DEFERRED_FILLS.has(version)) return sql;
  const holdsReports = db.prepare('SELECT EXISTS (SELECT 1 FROM snapshots) AS any').get() as { any: number };
  return holdsReports.any ? schemaOf(sql) : sql;
}
