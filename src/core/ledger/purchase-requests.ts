/**
 * Purchases an assistant asked for over MCP, waiting for the person's word (docs/decisions/0027-mcp-server.md).
 * The table is shared by every process on the data folder: the MCP server writes a request, `intel-desk
 * approve` (another process) may pay it. Claiming a request for approval is one conditional UPDATE, so two
 * approvals at once cannot both pay it; the claim names its process, so one left by a process that died is
 * freed or settled by the next reader (request-claims.ts).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { DeskDb } from '../db/open';
import type { DeskEvents } from '../base/events';
import { selectionSchema, type PurchaseRequestState, type PurchaseRequestView } from '../../shared/rpc';
import { thisProcess } from '../base/process-holder';
import { FREED_CLAIM, judgeClaim, type ClaimRow } from './request-claims';

/** A day: after that the price the person would be shown is an old one, so the request must be asked again. */
export const REQUEST_LIFETIME_MS = 24 * 60 * 60 * 1000;

interface RequestRow extends ClaimRow {
  id: string;
  service_url: string;
  handle: string;
  selection_json: string;
  include_owned: number;
  report_count: number;
  amount: string;
  pay_to: string;
  network: string;
  asset: string | null;
  unit_price: string | null;
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
  asset: string;
  unitPrice: bigint;
  /** The reports the price was for: what an approval must buy, no more and no other. */
  reportIds: string[];
  reason: string | null;
}

const storedIds = z.array(z.string());

function reportIdsOf(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    return storedIds.parse(JSON.parse(text));
  } catch {
    return null;
  }
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
    asset: row.asset,
    unitPriceUnits: row.unit_price,
    reportIds: reportIdsOf(row.report_ids_json),
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
           amount, pay_to, network, asset, unit_price, report_ids_json, reason, state, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
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
        request.asset,
        request.unitPrice.toString(),
        JSON.stringify(request.reportIds),
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

  /** Claims whose process died: freed to pending, or settled from the purchase it recorded. */
  private recover(): void {
    const stuck = this.db
      .prepare<[], RequestRow>("SELECT * FROM purchase_requests WHERE state = 'approving'")
      .all();
    let changed = 0;
    for (const row of stuck) {
      const verdict = judgeClaim(this.db, row, this.iso());
      // Conditional on the same claim: two readers recovering at once change it once.
      const same = 'WHERE id = ? AND state = ? AND claim_pid IS ? AND claim_stamp IS ?';
      const claim = [row.id, 'approving', row.claim_pid, row.claim_stamp] as const;
      if (verdict.kind === 'free')
        changed += this.db
          .prepare(`UPDATE purchase_requests SET state = 'pending', error = ? ${same}`)
          .run(FREED_CLAIM, ...claim).changes;
      else if (verdict.kind === 'settle')
        changed += this.db
          .prepare(
            `UPDATE purchase_requests SET state = ?, purchase_id = ?, error = ?, decided_at = ? ${same}`,
          )
          .run(verdict.state, verdict.purchaseId, verdict.error, this.iso(), ...claim).changes;
    }
    if (changed > 0) this.events?.changed('purchases.changed');
  }

  get(id: string): PurchaseRequestView | null {
    this.expire();
    this.recover();
    const row = this.db.prepare<[string], RequestRow>('SELECT * FROM purchase_requests WHERE id = ?').get(id);
    return row ? view(row) : null;
  }

  list(state?: PurchaseRequestState): PurchaseRequestView[] {
    this.expire();
    this.recover();
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

  /**
   * Moves a pending request on, naming this process as its holder; false when it was not pending any more
   * (another approval took it, or it was decided). The only check that stops two approvals paying once each.
   */
  claim(id: string): boolean {
    this.recover();
    const holder = thisProcess();
    return (
      this.db
        .prepare(
          `UPDATE purchase_requests SET state = 'approving', error = NULL, claim_pid = ?, claim_stamp = ?,
             claimed_at = ? WHERE id = ? AND state = 'pending' AND expires_at > ?`,
        )
        .run(holder.pid, holder.stamp, this.iso(), id, this.iso()).changes === 1
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
        `UPDATE purchase_requests SET state = ?, purchase_id = ?, error = ?, decided_at = ?
         WHERE id = ? AND state = 'approving'`,
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
