/**
 * A spending budget per handle, per local calendar month (docs/decisions/0018-handle-budgets.md), in desk.db
 * beside the caps. A handle is matched without regard to case, as the service matches it.
 */
import type { DeskDb } from '../db/open';
import type { DeskEvents } from '../base/events';

export interface HandleBudget {
  handle: string;
  /** Token base units a month. */
  monthly: bigint;
}

export class HandleBudgets {
  constructor(
    private readonly db: DeskDb,
    private readonly now: () => number,
    private readonly events: DeskEvents | null = null,
  ) {}

  get(handle: string): bigint | null {
    const row = this.db
      .prepare<[string], { monthly: bigint }>(
        'SELECT monthly_units AS monthly FROM handle_budgets WHERE handle = ?',
      )
      .safeIntegers(true)
      .get(handle);
    return row?.monthly ?? null;
  }

  list(): HandleBudget[] {
    return this.db
      .prepare<[], HandleBudget>(
        'SELECT handle, monthly_units AS monthly FROM handle_budgets ORDER BY handle COLLATE NOCASE',
      )
      .safeIntegers(true)
      .all();
  }

  /** Sets the handle's monthly budget, or clears it (null); returns whether a budget was there before. */
  set(handle: string, monthly: bigint | null): boolean {
    const had = this.get(handle) !== null;
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM handle_budgets WHERE handle = ?').run(handle);
      if (monthly !== null) {
        this.db
          .prepare('INSERT INTO handle_budgets (handle, monthly_units, set_at) VALUES (?, ?, ?)')
          .run(handle, monthly, new Date(this.now()).toISOString());
      }
    })();
    this.events?.changed('settings.changed');
    return had;
  }
}
