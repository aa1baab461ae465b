/**
 * Purchases an assistant asked for over MCP, waiting for the person's word (docs/decisions/0027-mcp-server.md).
 * The table is shared by every process on the data folder: the MCP server writes a request, `intel-desk
 * approve` (another process) may pay it. Claiming a request for approval is one conditional UPDATE, so two
 * approvals at once cannot both pay it.
 */
import { randomBytes } from 'node:crypto';
import type { DeskDb } from '../db/open';
import type { DeskEvents } from '../events';
import { selectionSchema, type PurchaseRequestState, type PurchaseRequestView } from '../../shared/rpc';

/** A day: after that the price the person would be shown is an old one, so the request must be asked again. */
export const REQUEST_LIFETIME_MS = 24 * 60 * 60 * 1000;

interface RequestRow {
  id: string;
  service_url: string;
  handle: string;
  selection_json: string;
  include_owned: number;
  report_count: number;
  amount: string;
  pay_to: string;
  network: string;
  reason: string | null;
  state: PurchaseRequestState;
  purchase_id: string | null;
  error: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
}

export interface NewRequest {
  serviceUrl: string;
  handle: string;
  selection: PurchaseRequestView['selection'];
  includeOwned: boolean;
  reportCount: number;
  amount: bigint;
  payTo: string;
  network: string;
  reason: string | null;
}

function view(row: RequestRow): PurchaseRequestView {
  return {
    id: row.id,
    state: row.state,
    serviceUrl: row.service_url,
    handle: row.handle,
    selection: selectionSchema.parse(JSON.parse(row.selection_json)),
    includeOwned: row.include_owned === 1,
    reportCount: row.report_count,
    amount: row.amount,
    payTo: row.pay_to,
    network: row.network,
    reason: row.reason,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    decidedAt: row.decided_at,
    purchaseId: row.purchase_id,
    error: row.error,
  };
}

export class PurchaseRequests {
  constructor(
    private readonly db: DeskDb,
    private readonly now: () => number,
    private readonly events: DeskEvents | null = null,
  ) {}

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  create(request: NewRequest): PurchaseRequestView {
    // Short enough to type after `intel-desk approve`, random enough that one cannot be guessed from another.
    const id = `req_${randomBytes(6).toString('hex')}`;
    const now = this.now();
    this.db
      .prepare(
        `INSERT INTO purchase_requests (id, service_url, handle, selection_json, include_owned, report_count,
           amount, pay_to, network, reason, state, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      )
      .run(
        id,
        request.serviceUrl,
        request.handle,
        JSON.stringify(request.selection),
        request.includeOwned ? 1 : 0,
        request.reportCount,
        request.amount.toString(),
        request.payTo,
        request.network,
        request.reason,
        new Date(now).toISOString(),
        new Date(now + REQUEST_LIFETIME_MS).toISOString(),
      );
    this.events?.changed('purchases.changed');
    return this.get(id)!;
  }

  /** Pending requests past their day become expired as they are read. */
  private expire(): void {
    const changed = this.db
      .prepare(
        `UPDATE purchase_requests SET state = 'expired', decided_at = ? WHERE state = 'pending' AND expires_at <= ?`,
      )
      .run(this.iso(), this.iso()).changes;
    if (changed > 0) this.events?.changed('purchases.changed');
  }

  get(id: string): PurchaseRequestView | null {
    this.expire();
    const row = this.db.prepare<[string], RequestRow>('SELECT * FROM purchase_requests WHERE id = ?').get(id);
    return row ? view(row) : null;
  }

  list(state?: PurchaseRequestState): PurchaseRequestView[] {
    this.expire();
    const rows =
      state === undefined
        ? this.db
            .prepare<[], RequestRow>('SELECT * FROM purchase_requests ORDER BY created_at DESC, id')
            .all()
        : this.db
            .prepare<[string], RequestRow>(
              'SELECT * FROM purchase_requests WHERE state = ? ORDER BY created_at DESC, id',
            )
            .all(state);
    return rows.map(view);
  }

  /** Moves a pending request on; false when it was not pending any more (another approval took it). */
  claim(id: string): boolean {
    return (
      this.db
        .prepare(
          `UPDATE purchase_requests SET state = 'approving', error = NULL WHERE id = ? AND state = 'pending' AND expires_at > ?`,
        )
        .run(id, this.iso()).changes === 1
    );
  }

  /** An approval that paid nothing (a cap, a locked wallet): the request waits for the person again. */
  release(id: string, error: string): void {
    this.db
      .prepare(
        `UPDATE purchase_requests SET state = 'pending', error = ? WHERE id = ? AND state = 'approving'`,
      )
      .run(error, id);
    this.events?.changed('purchases.changed');
  }

  settle(
    id: string,
    state: 'approved' | 'failed' | 'declined',
    purchaseId: string | null,
    error: string | null,
  ): void {
    this.db
      .prepare(
        `UPDATE purchase_requests SET state = ?, purchase_id = ?, error = ?, decided_at = ? WHERE id = ?`,
      )
      .run(state, purchaseId, error, this.iso(), id);
    this.events?.changed('purchases.changed');
  }

  /** Declines a pending request; false when it was not pending. */
  decline(id: string): boolean {
    const changed =
      this.db
        .prepare(
          `UPDATE purchase_requests SET state = 'declined', decided_at = ? WHERE id = ? AND state = 'pending'`,
        )
        .run(this.iso(), id).changes === 1;
    if (changed) this.events?.changed('purchases.changed');
    return changed;
  }
}
