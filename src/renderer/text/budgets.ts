/** Settings → Budgets per handle (BudgetsForm.tsx). */
import { catalogue } from './catalogue';

export const BUDGETS_TEXT = {
  title: 'Budgets per handle',
  explain:
    "What a handle's reports may cost each calendar month; over it, a purchase needs an extra confirmation, as over a cap. Raising or clearing a budget needs the wallet's passphrase.",
  listLabel: 'Budgets',
  row: '@{handle}: {budget} a month, {month} spent this month',
  over: ' · over by {amount}',
  clearLabel: 'Clear the budget of @{handle}',
  clear: 'Clear',
  handle: 'Handle',
  perMonth: 'Per month (USD)',
  consent: 'raise or clear a budget',
  submit: 'Set budget',
  cleared: '@{handle} has no budget now.',
  set: '@{handle}: {amount} a month.',
  unchecked: ' Kept without checking that the service lists @{handle} ({reason}).',
} as const;

export const budgetsText = catalogue(BUDGETS_TEXT);
