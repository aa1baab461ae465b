/**
 * What was spent, summed in SQL over the purchase ledger: totals for the Purchases screen and the CLI's
 * `spend`, and what counts against the daily cap and a handle's budget (payments/spending.ts adds the
 * payments being signed). One rule counts everywhere: every purchase not known to have failed, one in doubt
 * in full since it may still be charged, a library-secret read at its amount of 0.
 */
import type { DeskDb } from '../db/open';
import { localDayKey } from '../../shared/money';

/** The daily cap's rule as SQL: a failed purchase moved nothing and never will. */
const COUNTS = `state <> 'failed'`;
const UNITS = 'CAST(amount AS INTEGER)';

export interface SpendTotals {
  lifetime: bigint;
  month: bigint;
  /** Of the lifetime total, what is in doubt (or signed and sent, not answered yet). */
  unsettled: bigint;
}

export interface HandleSpend {
  handle: string;
  total: bigint;
  month: bigint;
  purchases: number;
}

export interface DaySpend {
  /** The local day, 2026-11-23. */
  day: string;
  amount: bigint;
}

export class SpendLedger {
  constructor(private readonly db: DeskDb) {
    // Days are the desk's local days, the same ones the daily cap counts from (startOfLocalDay), which
    // SQLite's own 'localtime' cannot promise: it reads the zone once, JavaScript follows TZ changes.
    db.function('local_day', { deterministic: true }, (iso: unknown) =>
      typeof iso === 'string' ? localDayKey(Date.parse(iso)) : null,
    );
  }

  /** What counts against the caps since `since` (the daily cap's local midnight). */
  countedSince(since: Date): bigint {
    const row = this.db
      .prepare<[string], { spent: bigint }>(
        `SELECT COALESCE(SUM(${UNITS}), 0) AS spent FROM purchases WHERE ${COUNTS} AND created_at >= ?`,
      )
      .safeIntegers(true)
      .get(since.toISOString());
    return row?.spent ?? 0n;
  }

  totals(monthStart: Date): SpendTotals {
    const row = this.db
      .prepare<[{ month: string }], Record<keyof SpendTotals, bigint>>(
        `SELECT COALESCE(SUM(${UNITS}), 0) AS lifetime,
           COALESCE(SUM(CASE WHEN created_at >= @month THEN ${UNITS} END), 0) AS month,
           COALESCE(SUM(CASE WHEN state <> 'completed' THEN ${UNITS} END), 0) AS unsettled
         FROM purchases WHERE ${COUNTS}`,
      )
      .safeIntegers(true)
      .get({ month: monthStart.toISOString() });
    return row ?? { lifetime: 0n, month: 0n, unsettled: 0n };
  }

  /** Every handle anything was spent on, the most spent first; a handle's case is the latest one bought. */
  byHandle(monthStart: Date): HandleSpend[] {
    return this.db
      .prepare<[string], { handle: string; total: bigint; month: bigint; purchases: bigint }>(
        // With one MAX() in the query, SQLite takes the bare `handle` from the row that has the max.
        `SELECT handle, MAX(created_at) AS latest, SUM(${UNITS}) AS total,
           COALESCE(SUM(CASE WHEN created_at >= ? THEN ${UNITS} END), 0) AS month,
           COUNT(*) AS purchases
         FROM purchases WHERE ${COUNTS}
         GROUP BY lower(handle) ORDER BY total DESC, lower(handle)`,
      )
      .safeIntegers(true)
      .all(monthStart.toISOString())
      .map(({ handle, total, month, purchases }) => ({ handle, total, month, purchases: Number(purchases) }));
  }

  /** Spend per local day since `since` (a local midnight); days without spend are absent. */
  byDay(since: Date): DaySpend[] {
    return this.db
      .prepare<[string], DaySpend>(
        `SELECT local_day(created_at) AS day, SUM(${UNITS}) AS amount
         FROM purchases WHERE ${COUNTS} AND created_at >= ?
         GROUP BY day ORDER BY day`,
      )
      .safeIntegers(true)
      .all(since.toISOString());
  }

  /** What a handle's purchases since `since` commit, matched without regard to case (its budget). */
  handleSince(handle: string, since: Date): bigint {
    const row = this.db
      .prepare<[string, string], { spent: bigint }>(
        `SELECT COALESCE(SUM(${UNITS}), 0) AS spent FROM purchases
         WHERE ${COUNTS} AND handle = ? COLLATE NOCASE AND created_at >= ?`,
      )
      .safeIntegers(true)
      .get(handle, since.toISOString());
    return row?.spent ?? 0n;
  }

  /**
   * The newest payment to the service (for the handle, or any handle when null): its price per report is the
   * last one the service asked, whatever became of the payment.
   */
  lastPayment(serviceUrl: string, handle: string | null): LastPayment | null {
    const row = this.db
      .prepare<[{ serviceUrl: string; handle: string | null }], LastPayment>(
        `SELECT handle, amount, report_count AS reportCount, created_at AS createdAt FROM purchases
         WHERE service_url = @serviceUrl AND paid_with = 'payment' AND report_count > 0
           AND (@handle IS NULL OR handle = @handle COLLATE NOCASE)
         ORDER BY created_at DESC LIMIT 1`,
      )
      .get({ serviceUrl, handle });
    return row ?? null;
  }
}

export interface LastPayment {
  handle: string;
  amount: string;
  reportCount: number;
  createdAt: string;
}
