/**
 * Reservations: the row every payment takes, in one write transaction with the checks it passed, before anything
 * is signed, whichever process signs (the window, a CLI run, the MCP server's approvals). It says which process
 * holds it and until when the payment it guards could still be sent (the authorization's validBefore), so the
 * others see a payment being signed or sent before its ledger row exists, and a holder killed mid-purchase
 * blocks nothing for good: its reservation lapses, and its ledger row, if any, follows the ledger's rules.
 */
import { selectionSchema, type Selection } from '../../shared/rpc';
import type { DeskDb } from '../db/open';
import { refused } from '../base/errors';
import {
  closeDesk,
  holderFor,
  holderLiveness,
  openDesk,
  parseHolder,
  type Holder,
} from './reservation-holder';

/**
 * How long past validBefore a reservation still counts: the processes on one machine share its clock, but a
 * desk's clock may be set off it (a skew the desk measured, a test's offset).
 */
const RESERVATION_GRACE_MS = 60_000;

export interface Reservation {
  purchaseId: string;
  serviceUrl: string;
  handle: string;
  selection: Selection;
  amount: bigint;
  holder: Holder | null;
  /** The last moment (ms) the guarded payment could be sent: its authorization's validBefore. */
  expiresAt: number;
  createdAt: string;
}

interface ReservationRow {
  purchase_id: string;
  service_url: string;
  handle: string;
  selection_json: string;
  amount: string;
  holder_json: string;
  expires_at: number;
  created_at: string;
}

function parseSelection(json: string): Selection {
  try {
    const parsed = selectionSchema.safeParse(JSON.parse(json));
    // A selection that does not read is taken as everything: it then blocks more, never less.
    return parsed.success ? parsed.data : { kind: 'all' };
  } catch {
    return { kind: 'all' };
  }
}

function fromRow(row: ReservationRow): Reservation {
  return {
    purchaseId: row.purchase_id,
    serviceUrl: row.service_url,
    handle: row.handle,
    selection: parseSelection(row.selection_json),
    amount: /^\d{1,30}$/.test(row.amount) ? BigInt(row.amount) : 0n,
    holder: parseHolder(row.holder_json),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}

/** Whether a reservation still stands for the guard and the caps: its holder may still send its payment. */
function standing(reservation: Reservation, now: number): boolean {
  if (now > reservation.expiresAt + RESERVATION_GRACE_MS) return false;
  return reservation.holder !== null && holderLiveness(reservation.holder) !== 'dead';
}

/**
 * Whether its holder is still at work on the purchase, whatever the time: a live process waiting for a slow
 * answer is not to be second-guessed by another process's reconciliation.
 */
function heldByLiveProcess(reservation: Reservation, now: number): boolean {
  if (reservation.holder === null) return false;
  const liveness = holderLiveness(reservation.holder);
  return liveness === 'alive' || (liveness === 'unknown' && standing(reservation, now));
}

export interface NewReservation {
  purchaseId: string;
  serviceUrl: string;
  handle: string;
  selection: Selection;
  amount: bigint;
  expiresAt: number;
}

export class Reservations {
  /** This open desk, as its reservations name it (reservation-holder.ts). */
  private readonly desk = openDesk();

  constructor(
    private readonly db: DeskDb,
    private readonly now: () => number,
  ) {}

  /** The desk closes: what it still holds (a release a full disk refused) names a holder no longer alive. */
  close(): void {
    closeDesk(this.desk);
  }

  all(): Reservation[] {
    return this.db
      .prepare<[], ReservationRow>('SELECT * FROM reservations ORDER BY created_at')
      .all()
      .map(fromRow);
  }

  /** The reservations that stand now (see standing()). */
  standing(): Reservation[] {
    const now = this.now();
    return this.all().filter((reservation) => standing(reservation, now));
  }

  get(purchaseId: string): Reservation | null {
    const row = this.db
      .prepare<[string], ReservationRow>('SELECT * FROM reservations WHERE purchase_id = ?')
      .get(purchaseId);
    return row ? fromRow(row) : null;
  }

  /** True while this desk holds the reservation and it still stands: the fence before a payment leaves. */
  holds(purchaseId: string): boolean {
    const reservation = this.get(purchaseId);
    return reservation?.holder?.desk === this.desk && standing(reservation, this.now());
  }

  /** The fence before a payment leaves or is judged again: refused unless this desk still holds its place. */
  assertHeld(purchaseId: string): void {
    if (this.holds(purchaseId)) return;
    throw refused(
      'reservation_lapsed',
      'This payment took too long to be signed and no longer holds its place; nothing was sent. Buy again.',
    );
  }

  /** True while a live process (this one included) is still at work on this purchase. */
  atWork(purchaseId: string): boolean {
    const reservation = this.get(purchaseId);
    return reservation !== null && heldByLiveProcess(reservation, this.now());
  }

  /** Removes reservations that no longer stand and whose holder is not at work any more. */
  pruneLapsed(): void {
    const now = this.now();
    const remove = this.db.prepare('DELETE FROM reservations WHERE purchase_id = ?');
    for (const reservation of this.all())
      if (!standing(reservation, now) && !heldByLiveProcess(reservation, now))
        remove.run(reservation.purchaseId);
  }

  /** Call inside the write transaction that checked the guard and the caps. */
  insert(reservation: NewReservation): void {
    this.db
      .prepare(
        `INSERT INTO reservations (purchase_id, service_url, handle, selection_json, amount, holder_json,
           expires_at, created_at)
         VALUES (@purchaseId, @serviceUrl, @handle, @selection, @amount, @holder, @expiresAt, @createdAt)`,
      )
      .run({
        purchaseId: reservation.purchaseId,
        serviceUrl: reservation.serviceUrl,
        handle: reservation.handle,
        selection: JSON.stringify(reservation.selection),
        amount: reservation.amount.toString(),
        holder: JSON.stringify(holderFor(this.desk)),
        expiresAt: reservation.expiresAt,
        createdAt: new Date(this.now()).toISOString(),
      });
  }

  /**
   * Called as a purchase ends, whatever it ended in: a write that fails here (a full disk) must not replace
   * that outcome, and the reservation then lapses by itself at its validBefore.
   */
  release(purchaseId: string): void {
    try {
      this.db.prepare('DELETE FROM reservations WHERE purchase_id = ?').run(purchaseId);
    } catch {
      // Lapses at expiresAt; meanwhile it blocks only what its own purchase already blocks.
    }
  }
}
