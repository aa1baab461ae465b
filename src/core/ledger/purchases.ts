/**
 * The purchase ledger (safety rule 5): a row is written before the paid request leaves and moves through
 * signed -> sent -> completed | failed | in_doubt. The signature is never stored in the row; a payment sent to a
 * service that offers payment-identifier is kept sealed beside it until validBefore (kept-payments.ts).
 */
import { z } from 'zod';
import type { PaidWith, PurchaseState, PurchaseView, PurchaseWait } from '../../shared/rpc';
import type { DeskDb } from '../db/open';
import type { DeskEvents } from '../base/events';
import { RESTORED_ID_PREFIX, restoredUnconfirmed } from './restored';

const purchaseWaitSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('chain'),
    rpcUrl: z.string(),
    summary: z.string(),
    refusal: z.string().optional(),
  }),
  z.object({
    kind: z.literal('expiry'),
    until: z.string(),
    summary: z.string(),
    refusal: z.string().optional(),
  }),
  z.object({ kind: z.literal('chain_access'), summary: z.string() }),
  z.object({ kind: z.literal('redelivery'), txHash: z.string().nullable(), summary: z.string() }),
  z.object({ kind: z.literal('storage'), summary: z.string() }),
]) satisfies z.ZodType<PurchaseWait>;

export function parseWait(json: string | null): PurchaseWait | null {
  if (json === null) return null;
  try {
    const parsed = purchaseWaitSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface NewPurchase {
  id: string;
  serviceUrl: string;
  handle: string;
  resource: string;
  reportCount: number;
  amount: bigint;
  network: string;
  asset: string;
  payer: string;
  payTo: string;
  nonce: string;
  validBefore: bigint;
  quoteJson: string;
  createdAt: string;
}

export interface RestoredPurchaseRow {
  id: string;
  serviceUrl: string;
  handle: string;
  resource: string;
  reportCount: number;
  amount: string;
  network: string;
  asset: string;
  payer: string;
  payTo: string;
  nonce: string;
  validBefore: number;
  quoteJson: string;
  txHash: string;
  responseJson: string;
  reportIds: string[];
  createdAt: string;
}

export interface PurchaseRow {
  id: string;
  service_url: string;
  handle: string;
  resource: string;
  report_count: number;
  amount: string;
  network: string;
  asset: string;
  payer: string;
  pay_to: string;
  paid_with: PaidWith;
  nonce: string;
  valid_before: number;
  quote_json: string;
  state: PurchaseState;
  tx_hash: string | null;
  error: string | null;
  response_json: string | null;
  report_ids: string;
  created_at: string;
  updated_at: string;
  waiting_json: string | null;
  checked_at: string | null;
}

/** What actually moved for a purchase (see PurchaseView.movedUnits). */
function movedUnits(row: PurchaseRow, waitingFor: PurchaseWait | null): string | null {
  if (row.paid_with === 'library_secret' || row.state === 'failed') return '0';
  // Only the service's word: unknown until the chain confirms it.
  if (restoredUnconfirmed(row)) return null;
  if (row.state === 'completed' || waitingFor?.kind === 'redelivery' || waitingFor?.kind === 'storage')
    return row.amount;
  return null;
}

export function purchaseView(row: PurchaseRow): PurchaseView {
  const waitingFor = row.state === 'in_doubt' ? parseWait(row.waiting_json) : null;
  const restored = row.id.startsWith(RESTORED_ID_PREFIX)
    ? restoredUnconfirmed(row)
      ? 'unconfirmed'
      : 'on_chain'
    : null;
  return {
    id: row.id,
    paidWith: row.paid_with,
    restored,
    handle: row.handle,
    resource: row.resource,
    reportCount: row.report_count,
    amount: row.amount,
    movedUnits: movedUnits(row, waitingFor),
    payer: row.payer,
    payTo: row.pay_to,
    network: row.network,
    state: row.state,
    txHash: row.tx_hash,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    reportIds: z.array(z.string()).catch([]).parse(safeJson(row.report_ids)),
    waitingFor,
    checkedAt: row.checked_at,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export class PurchaseLedger {
  constructor(
    private readonly db: DeskDb,
    private readonly now: () => Date,
    private readonly events: DeskEvents | null = null,
  ) {}

  private changed(): void {
    this.events?.changed('purchases.changed');
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  insertSigned(p: NewPurchase): void {
    this.db
      .prepare(
        `INSERT INTO purchases (id, service_url, handle, resource, report_count, amount, network, asset, payer, pay_to,
           nonce, valid_before, quote_json, state, created_at, updated_at)
         VALUES (@id, @serviceUrl, @handle, @resource, @reportCount, @amount, @network, @asset, @payer, @payTo,
           @nonce, @validBefore, @quoteJson, 'signed', @createdAt, @createdAt)`,
      )
      .run({ ...p, amount: p.amount.toString(), validBefore: Number(p.validBefore) });
    this.changed();
  }

  /** A library-secret read: recorded for the history, nothing paid, so no network, payer or payee. */
  insertFree(
    p: Omit<NewPurchase, 'nonce' | 'validBefore' | 'amount' | 'network' | 'asset' | 'payer' | 'payTo'>,
    reportIds: string[],
  ): void {
    this.db
      .prepare(
        `INSERT INTO purchases (id, service_url, handle, resource, report_count, amount, network, asset, payer, pay_to,
           paid_with, nonce, valid_before, quote_json, state, report_ids, created_at, updated_at)
         VALUES (@id, @serviceUrl, @handle, @resource, @reportCount, '0', '', '', '', '',
           'library_secret', '', 0, @quoteJson, 'completed', @reportIds, @createdAt, @createdAt)`,
      )
      .run({ ...p, reportIds: JSON.stringify(reportIds) });
    this.changed();
  }

  /**
   * A purchase brought back from its service after signing in (restore/): settled there, so completed here,
   * dated when it settled. Call inside the transaction that stores its reports.
   */
  insertRestored(p: RestoredPurchaseRow): void {
    this.db
      .prepare(
        `INSERT INTO purchases (id, service_url, handle, resource, report_count, amount, network, asset, payer, pay_to,
           nonce, valid_before, quote_json, state, tx_hash, response_json, report_ids, created_at, updated_at)
         VALUES (@id, @serviceUrl, @handle, @resource, @reportCount, @amount, @network, @asset, @payer, @payTo,
           @nonce, @validBefore, @quoteJson, 'completed', @txHash, @responseJson, @reportIds, @createdAt, @now)`,
      )
      .run({ ...p, reportIds: JSON.stringify(p.reportIds), now: this.stamp() });
    this.changed();
  }

  /** A restored purchase whose payment the chain has now confirmed: it counts as any other, dated by its block. */
  confirmRestored(id: string, settledAt: string): void {
    this.db
      .prepare(
        `UPDATE purchases SET quote_json = json_set(quote_json, '$.restored.onChain', json('true')),
           created_at = ?, updated_at = ? WHERE id = ? AND id GLOB '${RESTORED_ID_PREFIX}*'`,
      )
      .run(settledAt, this.stamp(), id);
    this.changed();
  }

  /**
   * The purchase paid with this authorization, if the ledger holds it. Payer and nonce name one payment on the
   * token whatever URL the service was reached at (a gateway's, the service's own).
   */
  byAuthorization(payer: string, nonce: string): PurchaseRow | undefined {
    return this.db
      .prepare<[string, string], PurchaseRow>(
        `SELECT * FROM purchases WHERE lower(payer) = ? AND lower(nonce) = ? AND paid_with = 'payment'`,
      )
      .get(payer.toLowerCase(), nonce.toLowerCase());
  }

  /** Moves a purchase on; what it waits for is replaced every time (null: nothing). */
  setState(
    id: string,
    state: PurchaseState,
    fields: { error?: string | null; txHash?: string | null; waiting?: PurchaseWait | null } = {},
  ): void {
    this.db
      .prepare(
        `UPDATE purchases SET state = @state, error = COALESCE(@error, error), tx_hash = COALESCE(@txHash, tx_hash),
           waiting_json = @waiting, updated_at = @now WHERE id = @id`,
      )
      .run({
        id,
        state,
        error: fields.error ?? null,
        txHash: fields.txHash ?? null,
        waiting: fields.waiting ? JSON.stringify(fields.waiting) : null,
        now: this.stamp(),
      });
    // A failed purchase's payment can never be asked for again (kept-payments.ts).
    if (state === 'failed') this.forgetPayment(id);
    this.changed();
  }

  private forgetPayment(id: string): void {
    this.db.prepare('DELETE FROM kept_payments WHERE purchase_id = ?').run(id);
  }

  /** Records that reconciliation looked at the purchase, whatever it found. */
  markChecked(id: string): void {
    this.db.prepare('UPDATE purchases SET checked_at = ? WHERE id = ?').run(this.stamp(), id);
    this.changed();
  }

  /** Keeps the paid answer durable before it is unpacked, so a crash after delivery loses nothing. */
  saveResponse(id: string, responseText: string, txHash: string | null): void {
    this.db
      .prepare(
        'UPDATE purchases SET response_json = ?, tx_hash = COALESCE(?, tx_hash), updated_at = ? WHERE id = ?',
      )
      .run(responseText, txHash, this.stamp(), id);
    this.changed();
  }

  complete(id: string, reportIds: string[]): void {
    this.db
      .prepare(
        `UPDATE purchases SET state = 'completed', error = NULL, waiting_json = NULL, report_ids = ?, updated_at = ?
         WHERE id = ?`,
      )
      .run(JSON.stringify(reportIds), this.stamp(), id);
    // Delivered: the kept payment has nothing more to fetch.
    this.forgetPayment(id);
    this.changed();
  }

  get(id: string): PurchaseRow | undefined {
    return this.db.prepare<[string], PurchaseRow>('SELECT * FROM purchases WHERE id = ?').get(id);
  }

  list(): PurchaseRow[] {
    return this.db
      .prepare<[], PurchaseRow>('SELECT * FROM purchases ORDER BY created_at DESC, id DESC')
      .all();
  }

  unsettled(): PurchaseRow[] {
    return this.db
      .prepare<[], PurchaseRow>(`SELECT * FROM purchases WHERE state IN ('signed', 'sent', 'in_doubt')`)
      .all();
  }
}
