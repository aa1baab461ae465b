/** A desk's ledger and library as SQLite holds them, read only, for checks that must not go through core. */
import Database from 'better-sqlite3';
import path from 'node:path';
import { z } from 'zod';

const rowSchema = z.object({
  id: z.string(),
  payer: z.string(),
  nonce: z.string(),
  amount: z.string(),
  network: z.string(),
  state: z.enum(['signed', 'sent', 'completed', 'failed', 'in_doubt']),
  tx_hash: z.string().nullable(),
  error: z.string().nullable(),
  response_json: z.string().nullable(),
  report_ids: z.string(),
  quote_json: z.string(),
  waiting_json: z.string().nullable(),
  valid_before: z.number(),
  created_at: z.string(),
});
export type LedgerRow = z.infer<typeof rowSchema>;

const snapshotSchema = z.object({ id: z.string(), raw_json: z.string(), purchase_id: z.string().nullable() });
export type SnapshotRow = z.infer<typeof snapshotSchema>;

export const LIBRARY_SECRET_NETWORK = 'library secret';

export function readDesk(dataDir: string): { rows: LedgerRow[]; snapshots: SnapshotRow[] } {
  const db = new Database(path.join(dataDir, 'desk.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = z.array(rowSchema).parse(
      db
        .prepare(
          `SELECT id, payer, nonce, amount, network, state, tx_hash, error, response_json, report_ids, quote_json,
               waiting_json, valid_before, created_at FROM purchases`,
        )
        .all(),
    );
    const snapshots = z
      .array(snapshotSchema)
      .parse(db.prepare('SELECT id, raw_json, purchase_id FROM snapshots').all());
    return { rows, snapshots };
  } finally {
    db.close();
  }
}

/** The ledger's "payer/nonce", lower case, as the chain's AuthorizationUsed names a payment. */
export const keyOf = (row: LedgerRow): string => `${row.payer.toLowerCase()}/${row.nonce.toLowerCase()}`;

export function waitKind(row: LedgerRow): string | null {
  if (row.waiting_json === null) return null;
  const parsed = z.object({ kind: z.string() }).safeParse(JSON.parse(row.waiting_json));
  return parsed.success ? parsed.data.kind : null;
}

/** A paid purchase the chain settled but the reports never arrived: its receipt is all the person has. */
export const paidNotDelivered = (row: LedgerRow): boolean =>
  row.state === 'in_doubt' && waitKind(row) === 'redelivery';

/** Rows that say money moved: completed payments and paid-not-delivered ones. */
export const claimsSettlement = (row: LedgerRow): boolean =>
  row.network !== LIBRARY_SECRET_NETWORK && (row.state === 'completed' || paidNotDelivered(row));

/** The reports a paid row paid for: the delivered ids, or the ids the quote expected when none arrived. */
export function paidReportIds(row: LedgerRow): string[] {
  const delivered = z.array(z.string()).catch([]).parse(JSON.parse(row.report_ids));
  if (delivered.length > 0) return delivered;
  const quote = z
    .object({ expectedIds: z.array(z.string()).nullable().optional() })
    .catch({})
    .parse(JSON.parse(row.quote_json));
  return quote.expectedIds ?? [];
}

/** Money this ledger counts against the caps on the local day of `day`: everything signed not failed. */
export function committedOn(rows: LedgerRow[], day: Date): bigint {
  const start = new Date(day);
  start.setHours(0, 0, 0, 0);
  const end = new Date(start);
  end.setDate(end.getDate() + 1);
  return rows
    .filter((row) => row.state !== 'failed' && row.network !== LIBRARY_SECRET_NETWORK)
    .filter((row) => {
      const at = new Date(row.created_at);
      return at >= start && at < end;
    })
    .reduce((sum, row) => sum + BigInt(row.amount), 0n);
}
