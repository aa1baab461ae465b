/**
 * What keeps one selection from being paid twice. Safety rule 5's last clause: while a payment for a
 * selection is unresolved (signing, on its way, or in doubt), no second payment for an overlapping selection
 * of the same handle on the same service is signed; two selections overlap unless they provably cannot share
 * a report (disjoint ids, or disjoint date ranges). Rule 6's: a quote pays once.
 */
import { formatUnitsUsd } from '../../shared/money';
import { readableDate } from '../../shared/analytics-shape';
import { z } from 'zod';
import { handleKey } from '../../shared/handle-key';
import { selectionSchema, type Selection } from '../../shared/rpc';
import { refused, type DeskError } from '../base/errors';
import type { PurchaseLedger, PurchaseRow } from '../ledger/purchases';
import type { HeldQuote, QuoteBook } from './quote-book';
import type { Reservation, Reservations } from '../ledger/reservations';

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

/** True when the two purchases could pay for the same report twice. */
export function samePurchaseTarget(a: GuardedSelection, b: GuardedSelection): boolean {
  return (
    a.serviceUrl === b.serviceUrl &&
    handleKey(a.handle) === handleKey(b.handle) &&
    selectionsOverlap(a.selection, b.selection)
  );
}

/** A purchase sent for (some of) these reports whose outcome is not known yet: it may still settle. */
export function unresolvedPurchase(ledger: PurchaseLedger, wanted: GuardedSelection): PurchaseRow | null {
  for (const row of ledger.unsettled()) {
    // Signed but not sent: while its holder lives, its reservation guards it (assertSelectionFree); once the
    // holder is gone it can never be sent, and reconciliation fails it.
    if (row.state === 'signed') continue;
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

/** What the guard reads: the ledger, and the reservations every process on this data folder takes. */
export interface GuardSources {
  ledger: PurchaseLedger;
  reservations: Reservations;
}

/** A payment for an overlapping selection being signed or sent now, by this process or another. */
function reservedPurchase(
  reservations: Reservations,
  wanted: GuardedSelection,
  excluding: readonly string[] = [],
): Reservation | null {
  for (const reservation of reservations.standing()) {
    if (!excluding.includes(reservation.purchaseId) && samePurchaseTarget(reservation, wanted))
      return reservation;
  }
  return null;
}

/**
 * Refuses while a payment for an overlapping selection is reserved (being signed or sent, in any process) or
 * unresolved in the ledger. `excluding`: purchases whose own reservations do not count.
 */
export function assertSelectionFree(
  sources: GuardSources,
  wanted: GuardedSelection,
  excluding: readonly string[] = [],
): void {
  const reserved = reservedPurchase(sources.reservations, wanted, excluding);
  if (reserved) {
    throw refused(
      'purchase_in_progress',
      `A payment for these reports (@${reserved.handle}, ${formatUnitsUsd(reserved.amount)}) is already being paid by another window or Intel Desk process; nothing was signed for this one. Purchases shows it once it is done.`,
      { purchaseId: reserved.purchaseId },
    );
  }
  const blocking = blockingPurchase(sources.ledger, wanted);
  if (blocking) throw blocking;
}

/**
 * Refuses a quote some of whose reports were bought since it was taken (rule 6), here or by another process on
 * the data folder: the guard above sees only payments still under way, not finished ones.
 */
export function assertNotOwnedSinceQuote(held: HeldQuote, ownedNow: Set<string>): void {
  const chosen = new Set(held.ownedWhenQuoted);
  const since = held.expectedIds.filter((id) => ownedNow.has(id) && !chosen.has(id));
  if (since.length === 0) return;
  throw refused(
    'owned_since_quote',
    `${since.length === 1 ? 'One of these reports was' : `${since.length} of these reports were`} bought since this price was given (by another window or Intel Desk process); nothing was signed. Ask for a new price: it leaves out what you own.`,
    { ownedSince: since.length },
  );
}
