/**
 * The Purchases screen's words: the ledger (Purchases.tsx) and the purchases an assistant asks for
 * (PurchaseRequests.tsx). Its spend totals and charts are in spend.ts, the receipt in receipt.ts.
 */
import { catalogue } from './catalogue';

export const PURCHASES_TEXT = {
  title: 'Purchases',
  checking: 'Checking…',
  checkUnfinished: 'Check unfinished purchases',
  exportCsv: 'Export CSV',
  reading: 'Reading the ledger…',
  today: 'Today: {spent} of your {cap} daily cap · per purchase cap {perPurchase}',
  meterLabel: 'Spent today of the daily cap',
  meterValue: '{spent} of {cap}',
  purchase: 'purchase',
  purchases: 'purchases',
  report: 'report',
  reports: 'reports',
  inDoubtOne:
    '{purchases} is not settled yet. Check unfinished purchases asks the chain and the service how each ended; Intel Desk never pays twice for them.',
  inDoubtMany:
    '{purchases} are not settled yet. Check unfinished purchases asks the chain and the service how each ended; Intel Desk never pays twice for them.',
  noPurchases: 'No purchases yet.',
  tableLabel: 'Purchases',
  columnWhen: 'When',
  columnHandle: 'Handle',
  columnReports: 'Reports',
  columnCharged: 'Charged',
  columnState: 'State',
  columnReceipt: 'Receipt',
  stateSigned: 'signed, not sent',
  stateSent: 'sent, waiting',
  stateCompleted: 'completed',
  stateFailed: 'failed',
  stateInDoubt: 'in doubt',
  librarySecret: 'library secret',
  restoredTitle:
    'Restored from the service, which says it charged {amount}; the chain has not confirmed it, so it counts against no cap or total.',
  notConfirmed: 'not confirmed · {amount}',
  unknownTitle: 'Quoted {amount}; not yet known whether it was charged.',
  unknown: 'unknown · up to {amount}',
  nothingChargedTitle: 'Quoted {amount}; nothing was charged.',
  waitingUntil: 'Waiting until {when}, when the payment authorization expires.',
  lastChecked: ' Last checked {when}.',
  paidTo: '{network} · paid to {payTo}',
  readWithSecret: 'Read with the library secret; nothing was paid.',
  copyReceipt: 'Copy receipt {hash}',
  receiptOf: 'Receipt of the purchase of {when}',
  receipt: 'Receipt',
  assistantAsks: 'An assistant asks to buy',
  assistantsAsk: 'Assistants ask for {purchases}',
  request: '{reports} of @{handle} for {amount}, asked {when}',
  termsFrom: 'From ',
  termsPaidOn: ', paid on {network} to ',
  termsEnd: '. Approving pays on these terms or not at all.',
  reason: 'The assistant’s reason: {reason}',
  approve: 'Approve and pay {amount}',
  goOverIt: 'go over it',
  goOverAndPay: 'Go over it and pay',
  acceptPayee: 'Accept the new payee and pay',
  decline: 'Decline',
  unlockToApprove: 'Unlock the wallet to approve here, or approve in a terminal with',
  approveCommand: 'intel-desk approve <id>',
  sentenceEnd: '.',
} as const;

export const purchasesText = catalogue(PURCHASES_TEXT);
