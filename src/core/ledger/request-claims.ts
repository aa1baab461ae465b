/**
 * Claims on purchase requests whose holder died (issue 40). An approval claims its request with its process
 * id and start stamp; if that process is killed mid-approval, the request would stay `approving` for ever.
 * A later reader looks the holder up: still running (or unknowable) leaves it alone; dead, the purchase
 * ledger decides. A purchase recorded for the request since the claim settles it (the purchase's own state,
 * reconciled as any other, says what became of the money); none recorded means nothing was signed, so the
 * request waits for the person again.
 */
import { z } from 'zod';
import type { DeskDb } from '../db/open';
import { holderRunning } from '../base/process-holder';

export interface ClaimRow {
  id: string;
  service_url: string;
  handle: string;
  report_ids_json: string | null;
  expires_at: string;
  claim_pid: number | null;
  claim_stamp: string | null;
  claimed_at: string | null;
}

interface PurchaseFound {
  id: string;
  state: 'signed' | 'sent' | 'completed' | 'failed' | 'in_doubt';
  error: string | null;
}

export type ClaimVerdict =
  | { kind: 'held' }
  | { kind: 'free' }
  | { kind: 'settle'; state: 'approved' | 'failed'; purchaseId: string; error: string | null };

const ids = z.array(z.string());
const quoteIds = z.looseObject({ expectedIds: ids.optional() });

function parsedIds(text: string | null, read: (value: unknown) => string[] | undefined): string[] | null {
  if (text === null) return null;
  try {
    return read(JSON.parse(text)) ?? null;
  } catch {
    return null;
  }
}

const sameIds = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * The purchase made for this request since it was claimed: of its service and handle, started at or after
 * the claim, for exactly its reports (the ids the payment was to deliver, or a secret read's delivered ids).
 */
function purchaseFor(db: DeskDb, row: ClaimRow): PurchaseFound | null {
  const wanted = parsedIds(row.report_ids_json, (v) => ids.safeParse(v).data);
  if (wanted === null) return null;
  const candidates = db
    .prepare<[string, string, string], PurchaseFound & { quote_json: string; report_ids: string }>(
      `SELECT id, state, error, quote_json, report_ids FROM purchases
       WHERE service_url = ? AND handle = ? AND created_at >= ? ORDER BY created_at`,
    )
    .all(row.service_url, row.handle, row.claimed_at ?? '');
  for (const candidate of candidates) {
    const paidFor =
      parsedIds(candidate.quote_json, (v) => quoteIds.safeParse(v).data?.expectedIds) ??
      parsedIds(candidate.report_ids, (v) => ids.safeParse(v).data);
    if (paidFor !== null && sameIds(paidFor, wanted))
      return { id: candidate.id, state: candidate.state, error: candidate.error };
  }
  return null;
}

/** What to do with a request left `approving`. */
export function judgeClaim(db: DeskDb, row: ClaimRow, nowIso: string): ClaimVerdict {
  if (row.claim_pid === null) {
    // Claimed by a version that did not say who: judged once no approval of it could still be running.
    if (row.expires_at > nowIso) return { kind: 'held' };
  } else if (holderRunning({ pid: row.claim_pid, stamp: row.claim_stamp })) return { kind: 'held' };
  const purchase = purchaseFor(db, row);
  if (purchase === null) return { kind: 'free' };
  if (purchase.state === 'completed')
    return { kind: 'settle', state: 'approved', purchaseId: purchase.id, error: null };
  if (purchase.state === 'failed')
    return { kind: 'settle', state: 'failed', purchaseId: purchase.id, error: purchase.error };
  return {
    kind: 'settle',
    state: 'approved',
    purchaseId: purchase.id,
    error: `The approval's process ended while paying; purchase ${purchase.id} is ${purchase.state.replace('_', ' ')} and is settled by reconciliation, never paid again automatically.`,
  };
}

export const FREED_CLAIM =
  'An approval of this request ended (its process stopped) before anything was signed; nothing was paid. It can be approved again.';
