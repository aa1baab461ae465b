/**
 * The purchase panel's price, budget and refusal lines (purchase/PriceLines, BudgetNote,
 * RefusalChoice) and its confirmation (purchase/ConfirmDialog).
 */
import { catalogue } from './catalogue';

export const PURCHASE_TEXT = {
  report: 'report',
  reports: 'reports',
  includesOwned: 'Includes {reports} you already own, bought again for {amount}.',
  ownedLeftOutOne:
    'You already own {reports} of this choice; it is left out (buying it again would cost {amount}).',
  ownedLeftOutMany:
    'You already own {reports} of this choice; they are left out (buying them again would cost {amount}).',
  reportsLabel: 'Reports',
  ownedLabel: 'Owned',
  totalLabel: 'Total',
  payeeLabel: 'Payee',
  payee: 'payee',
  was: 'was',
  payeeBefore: 'payee you paid before',
  networkLabel: 'Network',
  overBudget: 'Over the monthly budget for @{handle}',
  overBudgetFigures: ': {month} spent this month of {budget}, and this purchase costs {amount}.',
  overBudgetEnd: '.',
  newPriceBefore: 'You confirmed {confirmed} USDC; the service now asks ',
  newPriceAmount: '{amount} USDC',
  newPriceAfter: ' ({usd}).',
  payNewPrice: 'Pay the new price: {amount} USDC',
  paidBefore: 'Paid before',
  asksNow: 'Asks now',
  newPayee: 'new payee',
  acceptPayee: 'Accept the new payee and pay {amount} USDC',
  confirmTitle: 'Confirm the purchase',
  confirmBefore: 'Pay exactly ',
  confirmAfter: ' ({tokens} USDC) for {reports} of @{handle}?',
  rebuy: 'I want to pay again for the {reports} I already own',
  acceptPayeeTick: 'I checked the new payee and accept it',
  acceptCapTick: 'I accept going over my spending cap or budget',
  capConsent: 'go over it',
  cancel: 'Cancel',
  pay: 'Pay {amount}',
  balanceLow: 'Your balance ({balance} USDC) is below this price.',
} as const;

export const purchaseText = catalogue(PURCHASE_TEXT);
