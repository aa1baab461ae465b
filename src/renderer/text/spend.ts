/** The Purchases screen's spend: totals, budgets this month and the charts (SpendSummary.tsx, SpendCharts.tsx). */
import { catalogue } from './catalogue';

export const SPEND_TEXT = {
  section: 'Spend',
  thisMonth: 'This month',
  inAll: 'In all',
  unsettled: '{amount} of this is not settled yet and counts in full until it is.',
  budgetsLabel: 'Handle budgets this month',
  handle: 'Handle',
  spentThisMonth: 'Spent this month',
  monthlyBudget: 'Monthly budget',
  over: ' (over)',
  byDayCaption: 'Spent by day, last {days} days ({amount})',
  byDayTitle: 'Spent by day',
  spent: 'Spent',
  byHandleCaption: 'Spent by handle: this month and in all',
  byHandleTitle: 'Spent by handle',
} as const;

export const spendText = catalogue(SPEND_TEXT);
