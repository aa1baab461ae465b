/** A purchase's receipt (ReceiptDialog.tsx). */
import { catalogue } from './catalogue';

export const RECEIPT_TEXT = {
  secretRead: 'Read with the library secret: nothing was paid, so there is nothing on chain.',
  verified:
    "Verified on chain: block {block}, {time}. Payer, payee, amount and nonce match the token's own events.",
  mismatch: 'Does not match the chain:',
  expected: '{name}: expected ',
  chainHas: ', the chain has ',
  nothing: 'nothing',
  handle: 'Handle',
  date: 'Date',
  service: 'Service',
  amount: 'Amount',
  amountPaid: '{amount} ({units} token units)',
  nothingPaid: 'nothing paid',
  network: 'Network',
  payer: 'Payer',
  payee: 'Payee',
  nonce: 'Nonce',
  transaction: 'Transaction',
  explorer: 'Explorer',
  viewTransaction: 'View the transaction',
  titleFor: 'Receipt for @{handle}',
  title: 'Receipt',
  checkingChain: 'Checking the chain…',
  readingLedger: 'Reading the ledger…',
  delivered: 'Reports delivered ({count}), SHA-256 as received',
  answerNotKept: '(answer not kept)',
  notInLibrary: ' (not in the library)',
  close: 'Close',
  exportJson: 'Export JSON',
  exportPdf: 'Export PDF',
  checkAgain: 'Check again',
  verify: 'Verify on chain',
} as const;

export const receiptText = catalogue(RECEIPT_TEXT);
