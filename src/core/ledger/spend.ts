/**
 * What was spent, summed in SQL over the purchase ledger: totals for the Purchases screen and the CLI's
 * `spend`, and what counts against the daily cap and a handle's budget (payments/spending.ts adds the
 * payments being signed). One rule counts everywhere: every purchase not known to have failed, one in doubt
 * in full since it may still be charged, a library-secret read at its amount of 0. A purchase brought back from
 * its service (restore/) counts only once the chain confirmed its payment: until then the amount is only the
 * service's word, and a service's word must not fill today's cap or a handle's budget.
 */
import type { DeskDb } from '../db/open';
import { localDayKey } from '../../shared/money';
import { RESTORED_ID_PREFIX } from './restored';
import { handleKey } from '../../shared/handle-key';

/**
 * The rule as SQL. A restored purchase (its id says so) records in its quote whether the chain confirmed it;
 * CASE keeps json_extract off every other row's quote.
 */
const COUNTS = `state <> 'failed' AND (CASE WHEN id GLOB '${RESTORED_ID_PREFIX}*'
  THEN json_extract(quote_json, '$.restored.onChain') IS 1 ELSE 1 END)`;

/**
 * Amounts are decimal text, and SQLite's SUM stops with "integer overflow" past 2^63 - 1 base units, which
 * one service's word once reached. Each sum is taken in two parts: amounts of up to 12 digits (any purchase the
 * caps allow, at most 1,000,000 USD) in SQL, where 9 million of them could not overflow, and longer ones as
 * bigints by units_sum, which only they reach (FILTER): a JS step on every row cost 3 to 8 times more.
 */
const FITS = 'length(amount) <= 12';
const DIGITS = /^\d{1,78}$/;

const bigintOf = (text: unknown): bigint =>
  typeof text === 'string' && DIGITS.test(text) ? BigInt(text) : 0n;

/** The columns of one sum, named `${name}_fits` and `${name}_long`, over the rows `where` keeps. */
function unitsSum(name: string, where = '1'): string {
  return `SUM(CAST(amount AS INTEGER)) FILTER (WHERE ${FITS} AND (${where})) AS ${name}_fits,
    units_sum(amount) FILTER (WHERE NOT ${FITS} AND (${where})) AS ${name}_long`;
}

type SumRow = Record<string, bigint | string | null>;

/** The sum `name` from its parts in a row read with safeIntegers. */
function unitsOf(row: SumRow | undefined, name: string): bigint {
  const fits = row?.[`${name}_fits`];
  const long = row?.[`${name}_long`];
  return (typeof fits === 'bigint' ? fits : 0n) + (typeof long === 'string' ? BigInt(long) : 0n);
}

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
    db.aggregate('units_sum', {
      start: () => 0n,
      step: (total: bigint, amount: unknown) => total + bigintOf(amount),
      result: (total: bigint) => total.toString(),
    });
  }

  /** What counts against the caps since `since` (the daily cap's local midnight). */
  countedSince(since: Date): bigint {
    const row = this.db
      .prepare<[string], SumRow>(
        `SELECT ${unitsSum('spent')} FROM purchases WHERE ${COUNTS} AND created_at >= ?`,
      )
      .safeIntegers(true)
      .get(since.toISOString());
    return unitsOf(row, 'spent');
  }

  totals(monthStart: Date): SpendTotals {
    const row = this.db
      .prepare<[{ month: string }], SumRow>(
        `SELECT ${unitsSum('lifetime')}, ${unitsSum('month', 'created_at >= @month')},
           ${unitsSum('unsettled', "state <> 'completed'")}
         FROM purchases WHERE ${COUNTS}`,
      )
      .safeIntegers(true)
      .get({ month: monthStart.toISOString() });
    return {
      lifetime: unitsOf(row, 'lifetime'),
      month: unitsOf(row, 'month'),
      unsettled: unitsOf(row, 'unsettled'),
    };
  }

  /** Every handle anything was spent on, the most spent first; a handle's case is the latest one bought. */
  byHandle(monthStart: Date): HandleSpend[] {
    return (
      this.db
        .prepare<[{ month: string }], SumRow & { handle: string; purchases: bigint }>(
          // With one MAX() in the query, SQLite takes the bare `handle` from the row that has the max.
          `SELECT handle, MAX(created_at) AS latest, ${unitsSum('total')},
             ${unitsSum('month', 'created_at >= @month')}, COUNT(*) AS purchases
           FROM purchases WHERE ${COUNTS}
           GROUP BY lower(handle)`,
        )
        .safeIntegers(true)
        .all({ month: monthStart.toISOString() })
        .map((row) => ({
          handle: row.handle,
          total: unitsOf(row, 'total'),
          month: unitsOf(row, 'month'),
          purchases: Number(row.purchases),
        }))
        // Ordered here: a sum is only whole once its parts are added.
        .sort((a, b) =>
          a.total === b.total
            ? handleKey(a.handle).localeCompare(handleKey(b.handle))
            : a.total > b.total
              ? -1
              : 1,
        )
    );
  }

  /** Spend per local day since `since` (a local midnight); days without spend are absent. */
  byDay(since: Date): DaySpend[] {
    return this.db
      .prepare<[string], SumRow & { day: string }>(
        `SELECT local_day(created_at) AS day, ${unitsSum('amount')}
         FROM purchases WHERE ${COUNTS} AND created_at >= ?
         GROUP BY day ORDER BY day`,
      )
      .safeIntegers(true)
      .all(since.toISOString())
      .map((row) => ({ day: row.day, amount: unitsOf(row, 'amount') }));
  }

  /** What a handle's purchases since `since` commit, matched without regard to case (its budget). */
  handleSince(handle: string, since: Date): bigint {
    const row = this.db
      .prepare<[string, string], SumRow>(
        `SELECT ${unitsSum('spent')} FROM purchases
         WHERE ${COUNTS} AND handle = ? COLLATE NOCASE AND created_at >= ?`,
      )
      .safeIntegers(true)
      .get(handle, since.toISOString());
    return unitsOf(row, 'spent');
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
