/** A purchase's evidence: what was asked, what was signed, what settled, and what was delivered. */
import { formatUnitsUsd } from './money';

export interface ReceiptReport {
  id: string;
  /** SHA-256 (hex) of the report exactly as the service delivered it; null when no answer was kept. */
  sha256: string | null;
  /** Whether the library holds this report from this purchase, byte for byte as delivered. */
  inLibrary: boolean;
}

export interface ReceiptCheck {
  name: 'chain' | 'token' | 'payer' | 'payee' | 'amount' | 'nonce';
  expected: string;
  found: string | null;
  ok: boolean;
}

/** The settlement the chain names, found by the token's AuthorizationUsed(payer, nonce) event. */
export interface SettlementFound {
  /** The settlement transaction, or null when the authorization is used but its event was not found. */
  transaction: string | null;
  /** The transaction the service named, when it is not the settlement: the service's mistake, not the payment's. */
  serviceNamedOther: string | null;
}

export type ReceiptVerification =
  | ({ status: 'verified'; blockNumber: string; blockTime: string; checks: ReceiptCheck[] } & SettlementFound)
  | ({
      status: 'mismatch';
      blockNumber: string | null;
      blockTime: string | null;
      checks: ReceiptCheck[];
    } & SettlementFound)
  | { status: 'not_settled' | 'unavailable'; message: string; checks: ReceiptCheck[] };

/** What to say when the service named another transaction than the settlement; null when it did not. */
export function serviceNamedOtherText(v: ReceiptVerification): string | null {
  if (v.status !== 'verified' && v.status !== 'mismatch') return null;
  if (v.serviceNamedOther === null || v.transaction === null) return null;
  return `The service named a different transaction (${v.serviceNamedOther}); the settlement on chain is ${v.transaction}.`;
}

export interface Receipt {
  purchaseId: string;
  serviceUrl: string;
  handle: string;
  state: 'signed' | 'sent' | 'completed' | 'failed' | 'in_doubt';
  createdAt: string;
  /** False for reads with the library secret: nothing was paid, so there is nothing on chain. */
  paid: boolean;
  network: string;
  asset: string;
  payer: string;
  payee: string;
  /** Token base units (6 decimals for USDC) as a decimal string; what was paid when `paid`. */
  amount: string;
  resource: string;
  authorization: { nonce: string; validAfter: string | null; validBefore: string } | null;
  /** The 402 challenge the price came from, as the desk parsed it; null for purchases made before it was kept. */
  challenge: unknown;
  txHash: string | null;
  /** A block explorer page for the transaction on a public network; null on the demo chain. */
  explorerUrl: string | null;
  /** SHA-256 of the whole paid answer as received. */
  answerSha256: string | null;
  reports: ReceiptReport[];
  verification: ReceiptVerification | null;
}

/**
 * The Transaction line of a receipt without one. A completed payment's service named no transaction hash (0x
 * and 64 hex digits), or something else, which is not kept; the chain still knows the settlement.
 */
export function noTransactionText(receipt: Pick<Receipt, 'paid' | 'state'>): string {
  return receipt.paid && receipt.state === 'completed'
    ? "none recorded: the service named no transaction hash (0x and 64 hex digits), so none was kept; Verify on chain finds the settlement from the token's events"
    : 'none recorded';
}

/** One fact of a receipt: `name` for a terminal, `label` for a page; null where the purchase has none. */
export interface ReceiptField {
  name: string;
  label: string;
  value: string | null;
}

/** The facts of a receipt in the order every view of it (terminal, PDF, window) shows them. */
export function receiptFields(receipt: Receipt): ReceiptField[] {
  const field = (label: string, value: string | null): ReceiptField => ({
    name: label.toLowerCase(),
    label,
    value,
  });
  return [
    field('Purchase', receipt.purchaseId),
    field('Date', receipt.createdAt),
    field('State', receipt.state),
    field('Service', receipt.serviceUrl),
    field('Handle', `@${receipt.handle}`),
    field('Resource', receipt.resource),
    field(
      'Amount',
      receipt.paid ? `${formatUnitsUsd(receipt.amount)} (${receipt.amount} token units)` : 'nothing paid',
    ),
    field('Network', receipt.network || null),
    field('Token', receipt.asset || null),
    field('Payer', receipt.payer || null),
    field('Payee', receipt.payee || null),
    field('Nonce', receipt.authorization?.nonce ?? null),
    field('Transaction', receipt.txHash ?? noTransactionText(receipt)),
    field('Explorer', receipt.explorerUrl),
  ];
}
