/** What the Purchases screen, the CLI's `spend` and the menu's planner read about money spent and prices. */

/**
 * What was spent, in token base units as decimal strings (decision 0034). Everything counts as the daily cap
 * counts it: every purchase not known to have failed, one in doubt in full (it may still be charged). Days
 * and months are the desk's local ones.
 */
export interface SpendView {
  lifetimeUnits: string;
  monthUnits: string;
  todayUnits: string;
  /** Of the lifetime total, purchases not settled yet (in doubt, or sent and unanswered). */
  unsettledUnits: string;
  dayStart: string;
  monthStart: string;
  dailyCapUnits: string;
  perPurchaseCapUnits: string;
  /** Handles spent on or with a budget: the most spent first, then budgets without spend. */
  byHandle: HandleSpendView[];
  /** The last `days` local days, oldest first, days without spend at "0". */
  byDay: { day: string; units: string }[];
}

export interface HandleSpendView {
  handle: string;
  totalUnits: string;
  monthUnits: string;
  purchases: number;
  /** The handle's monthly budget, when one is set. */
  budgetUnits: string | null;
}

/** The last price per report a service asked for a handle's reports, for estimates before a live quote. */
export interface LastPriceView {
  /** In token base units. */
  unitPriceUnits: string;
  at: string;
  /** A purchase paid at that price, or a live quote this desk was shown. */
  source: 'purchase' | 'quote';
  /** The handle it was asked for: this one, or another of the same service when this one has none. */
  handle: string;
}
