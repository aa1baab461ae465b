/**
 * Builds a purchase's receipt from what the desk kept: the ledger row, the quote (with the challenge it came
 * from), and the paid answer as received, whose reports are hashed byte for byte as delivered.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Receipt, ReceiptReport, ReceiptVerification } from '../../shared/receipt';
import { topLevelArrayElements } from '../library/json-slices';
import type { PurchaseRow } from '../ledger/purchases';
import { explorerUrl } from './verify';

const keptQuoteSchema = z.looseObject({
  challenge: z.unknown().optional(),
  validAfter: z.string().optional(),
});

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function keptQuote(json: string): z.infer<typeof keptQuoteSchema> {
  try {
    const parsed = keptQuoteSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

function reportIds(row: PurchaseRow): string[] {
  try {
    const ids: unknown = JSON.parse(row.report_ids);
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Each delivered report's id and hash, read from the answer exactly as it arrived. */
export function deliveredReports(answer: string | null): Map<string, string> {
  const delivered = new Map<string, string>();
  if (!answer) return delivered;
  for (const raw of topLevelArrayElements(answer, 'reports') ?? []) {
    try {
      const id: unknown = (JSON.parse(raw) as { id?: unknown }).id;
      if (typeof id === 'string') delivered.set(id, sha256(raw));
    } catch {
      // An element that is not JSON was never stored either; its hash would prove nothing.
    }
  }
  return delivered;
}

export interface ReceiptSources {
  row: PurchaseRow;
  /** The library's stored copy of a report of this service, when it holds one. */
  storedRaw: (serviceUrl: string, id: string) => string | null;
  verification: ReceiptVerification | null;
}

/** Who paid whom on which network, as receipts and the CSV show it: a read with the secret paid no one. */
export function partiesOf(row: PurchaseRow): {
  paid: boolean;
  network: string;
  payer: string;
  payee: string;
} {
  const paid = row.paid_with !== 'library_secret';
  return { paid, network: paid ? row.network : '', payer: paid ? row.payer : '', payee: row.pay_to };
}

export function buildReceipt({ row, storedRaw, verification }: ReceiptSources): Receipt {
  const { paid, network, payer, payee } = partiesOf(row);
  const quote = keptQuote(row.quote_json);
  const delivered = deliveredReports(row.response_json);
  const ids = [...new Set([...reportIds(row), ...delivered.keys()])];
  const reports: ReceiptReport[] = ids.map((id) => {
    const hash = delivered.get(id) ?? null;
    const stored = storedRaw(row.service_url, id);
    return { id, sha256: hash, inLibrary: hash !== null && stored !== null && sha256(stored) === hash };
  });
  return {
    purchaseId: row.id,
    serviceUrl: row.service_url,
    handle: row.handle,
    state: row.state,
    createdAt: row.created_at,
    paid,
    network,
    asset: row.asset,
    payer,
    payee,
    amount: paid ? row.amount : '0',
    resource: row.resource,
    authorization: paid
      ? { nonce: row.nonce, validAfter: quote.validAfter ?? null, validBefore: String(row.valid_before) }
      : null,
    challenge: quote.challenge ?? null,
    txHash: row.tx_hash,
    explorerUrl: paid ? explorerUrl(row.network, row.tx_hash) : null,
    answerSha256: row.response_json === null ? null : sha256(row.response_json),
    reports,
    verification,
  };
}
