/**
 * Spending and payment facts in one place. What counts against the caps is one SQL rule (ledger/spend.ts):
 * every purchase not known to have failed, one in doubt in full. To it this adds the payments reserved and not
 * in the ledger yet (being signed, in this process or another: ledger/reservations.ts), so a quote, the
 * purchase's own check, the Purchases screen and the spend summary all count the same money, and purchases
 * started at once in any number of processes cannot go over the daily cap or a handle's budget together.
 * Amounts are token base units (bigint) throughout.
 */
import type { SpendView } from '../../shared/rpc';
import { localDayKey, startOfLocalDay, startOfLocalMonth } from '../../shared/money';
import type { SettingsStore } from '../settings/settings';
import type { PurchaseLedger } from '../ledger/purchases';
import type { SpendLedger } from '../ledger/spend';
import type { HandleBudgets } from '../ledger/budgets';
import type { Reservations } from '../ledger/reservations';
import { handleKey } from '../../shared/handle-key';
import type { HeldQuote } from './quote-book';
import { enforcePayment, type Consent, type PaymentFacts } from './policy';

export interface SpendingDeps {
  ledger: Pick<PurchaseLedger, 'get'>;
  spend: SpendLedger;
  budgets: HandleBudgets;
  settings: SettingsStore;
  reservations: Reservations;
  now: () => number;
}

const DEFAULT_DAYS = 30;

export class Spending {
  constructor(private readonly deps: SpendingDeps) {}

  /** purchases.spend: what was spent, by handle (budgets included) and by local day, against the caps. */
  view(days: number = DEFAULT_DAYS): SpendView {
    const { spend, budgets, settings } = this.deps;
    const now = this.deps.now();
    const dayStart = startOfLocalDay(now);
    const monthStart = startOfLocalMonth(now);
    const totals = spend.totals(monthStart);
    const budgeted = new Map(budgets.list().map((b) => [handleKey(b.handle), b]));
    const byHandle: SpendView['byHandle'] = spend.byHandle(monthStart).map((row) => {
      const budget = budgeted.get(handleKey(row.handle));
      budgeted.delete(handleKey(row.handle));
      return {
        handle: row.handle,
        totalUnits: row.total.toString(),
        monthUnits: row.month.toString(),
        purchases: row.purchases,
        budgetUnits: budget ? budget.monthly.toString() : null,
      };
    });
    for (const budget of budgeted.values()) {
      byHandle.push({
        handle: budget.handle,
        totalUnits: '0',
        monthUnits: '0',
        purchases: 0,
        budgetUnits: budget.monthly.toString(),
      });
    }
    const caps = settings.get();
    return {
      lifetimeUnits: totals.lifetime.toString(),
      monthUnits: totals.month.toString(),
      todayUnits: this.spentToday().toString(),
      unsettledUnits: totals.unsettled.toString(),
      dayStart: dayStart.toISOString(),
      monthStart: monthStart.toISOString(),
      dailyCapUnits: caps.dailyCapUnits,
      perPurchaseCapUnits: caps.perPurchaseCapUnits,
      byHandle,
      byDay: this.byDay(dayStart, days),
    };
  }

  /**
   * What counts against today's cap: since local midnight, in the ledger or reserved. `excluding`: purchases
   * judged again after they reserved (an external signature coming back), whose own money is the amount.
   */
  spentToday(excluding: readonly string[] = []): bigint {
    const since = startOfLocalDay(this.deps.now());
    return this.deps.spend.countedSince(since) + this.reserved(null, since, excluding);
  }

  /** What counts against the handle's monthly budget (matched as handleKey does), as spentToday counts. */
  handleThisMonth(handle: string, excluding: readonly string[] = []): bigint {
    const monthStart = startOfLocalMonth(this.deps.now());
    return this.deps.spend.handleSince(handle, monthStart) + this.reserved(handle, monthStart, excluding);
  }

  /** Everything the payment rules (policy.ts) look at for paying this quote to this service. */
  paymentFacts(held: HeldQuote, serviceUrl: string, excluding: readonly string[] = []): PaymentFacts {
    const { quote, handle } = held;
    return {
      amount: quote.amount,
      payTo: quote.payTo,
      pinnedPayTo: this.deps.settings.pinnedPayTo(serviceUrl),
      caps: this.deps.settings.get(),
      spent: this.spentToday(excluding),
      handle: {
        name: handle,
        budget: this.deps.budgets.get(handle),
        spentThisMonth: this.handleThisMonth(handle, excluding),
      },
    };
  }

  /** Refuses the payment unless the rules allow it or the person accepted going over (policy.ts). */
  enforce(held: HeldQuote, consent: Consent, serviceUrl: string, excluding: readonly string[] = []): void {
    enforcePayment(this.paymentFacts(held, serviceUrl, excluding), consent);
  }

  /** `days` local days ending today, oldest first: from SQL's days with spend, the others at 0. */
  private byDay(today: Date, days: number): SpendView['byDay'] {
    const first = new Date(today);
    first.setDate(first.getDate() - (days - 1));
    const spent = new Map(this.deps.spend.byDay(first).map((row) => [row.day, row.amount]));
    const out: SpendView['byDay'] = [];
    for (let at = new Date(first); at <= today; at.setDate(at.getDate() + 1)) {
      const day = localDayKey(at.getTime());
      out.push({ day, units: (spent.get(day) ?? 0n).toString() });
    }
    return out;
  }

  /** Standing reservations with no ledger row yet, of one handle or of all, taken since `since`. */
  private reserved(handle: string | null, since: Date, excluding: readonly string[]): bigint {
    const key = handle === null ? null : handleKey(handle);
    let sum = 0n;
    for (const reservation of this.deps.reservations.standing()) {
      if (excluding.includes(reservation.purchaseId)) continue;
      if (key !== null && handleKey(reservation.handle) !== key) continue;
      if (Date.parse(reservation.createdAt) < since.getTime()) continue;
      if (!this.deps.ledger.get(reservation.purchaseId)) sum += reservation.amount;
    }
    return sum;
  }
}
