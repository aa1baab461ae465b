/**
 * What keeps one selection from being paid twice. Safety rule 5's last clause: while a payment for a
 * selection is unresolved (signing, on its way, or in doubt), no second payment for an overlapping selection
 * of the same handle on the same service is signed; two selections overlap unless they provably cannot share
 * a report (disjoint ids, or disjoint date ranges). Rule 6's: a quote pays once.
 */
import { formatUnitsUsd } from '../../shared/money';
import { readableDate } from '../../shared/analytics-shape';
import { z } from 'zod';
import { selectionSchema, type Selection } from '../../shared/rpc';
import { refused, type DeskError } from '../errors';
import type { PurchaseLedger, PurchaseRow } from '../ledger/purchases';
import type { QuoteBook } from './quote-book';

export interface GuardedSelection {
  serviceUrl: string;
  handle: string;
  selection: Selection;
}

const quoteJsonSchema = z.looseObject({ selection: selectionSchema });

/** The selection a ledger row paid for; null when the row predates selections being recorded. */
export function rowSelection(row: PurchaseRow): Selection | null {
  try {
    const parsed = quoteJsonSchema.safeParse(JSON.parse(row.quote_json));
    return parsed.success ? parsed.data.selection : null;
  } catch {
    return null;
  }
}

/** Dates compare as ISO strings; an open end reaches forever. */
function rangesOverlap(a: { from?: string; to?: string }, b: { from?: string; to?: string }): boolean {
  const startsAfter = (x: { from?: string }, y: { to?: string }) =>
    x.from !== undefined && y.to !== undefined && x.from > y.to;
  return !startsAfter(a, b) && !startsAfter(b, a);
}

export function selectionsOverlap(a: Selection, b: Selection): boolean {
  if (a.kind === 'ids' && b.kind === 'ids') {
    const ids = new Set(a.ids);
    return b.ids.some((id) => ids.has(id));
  }
  if (a.kind === 'dates' && b.kind === 'dates') return rangesOverlap(a, b);
  return true;
}

function sameHandle(a: string, b: string): boolean {
  return a.replace(/^@/, '').toLowerCase() === b.replace(/^@/, '').toLowerCase();
}

/** True when the two purchases could pay for the same report twice. */
export function samePurchaseTarget(a: GuardedSelection, b: GuardedSelection): boolean {
  return (
    a.serviceUrl === b.serviceUrl &&
    sameHandle(a.handle, b.handle) &&
    selectionsOverlap(a.selection, b.selection)
  );
}

/** A purchase sent for (some of) these reports whose outcome is not known yet: it may still settle. */
export function unresolvedPurchase(ledger: PurchaseLedger, wanted: GuardedSelection): PurchaseRow | null {
  for (const row of ledger.unsettled()) {
    if (row.state === 'signed') continue; // never sent: reconciliation fails it, nothing can settle
    const selection = rowSelection(row);
    const target = {
      serviceUrl: row.service_url,
      handle: row.handle,
      selection: selection ?? { kind: 'all' as const },
    };
    if (samePurchaseTarget(target, wanted)) return row;
  }
  return null;
}

/** The refusal for a selection that an unresolved purchase in the ledger already covers, if any. */
export function blockingPurchase(ledger: PurchaseLedger, wanted: GuardedSelection): DeskError | null {
  const row = unresolvedPurchase(ledger, wanted);
  if (row) {
    const amount = formatUnitsUsd(row.amount);
    const what =
      row.state === 'in_doubt'
        ? `is in doubt: ${row.error ?? 'its answer was lost'}`
        : 'is still on its way to the service.';
    return refused(
      'purchase_in_doubt',
      `An earlier purchase of these reports (@${row.handle}, ${amount}, started ${readableDate(row.created_at)}, id ${row.id}) ${what} Nothing was signed now; buy again only once Purchases shows it resolved.`,
      { purchaseId: row.id },
    );
  }
  return null;
}

/** Takes the quote for one purchase, or refuses: a quote pays once (safety rule 6). */
export function claimQuote(quotes: QuoteBook, quoteId: string): void {
  const use = quotes.claim(quoteId);
  if (use === 'spent') {
    throw refused(
      'quote_spent',
      'This price quote was already used for a purchase; nothing more was signed. Ask for a new price to buy again.',
    );
  }
  if (use === 'in_use') {
    throw refused(
      'quote_in_use',
      'This price quote is already being paid (another click or window); nothing more was signed.',
    );
  }
}

/**
 * Payments this desk is signing or sending that are not in the ledger yet (or wait for an external
 * signature until their window closes), so two concurrent purchases of the same reports cannot both sign.
 */
export class PaymentsInFlight {
  private readonly entries = new Map<string, GuardedSelection & { until: number }>();

  add(purchaseId: string, target: GuardedSelection, until: number): void {
    this.entries.set(purchaseId, { ...target, until });
  }

  remove(purchaseId: string): void {
    this.entries.delete(purchaseId);
  }

  has(purchaseId: string): boolean {
    return this.entries.has(purchaseId);
  }

  /** Refuses while a payment for an overlapping selection is in flight here or unresolved in the ledger. */
  assertNone(wanted: GuardedSelection, ledger: PurchaseLedger, now: number): void {
    for (const [id, other] of this.entries) {
      if (other.until <= now) this.entries.delete(id);
      else if (samePurchaseTarget(other, wanted)) {
        throw refused(
          'purchase_in_progress',
          'A payment for these reports is already under way (another click or window); nothing was signed for this one.',
          { purchaseId: id },
        );
      }
    }
    const blocking = blockingPurchase(ledger, wanted);
    if (blocking) throw blocking;
  }
}
