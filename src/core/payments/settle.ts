/**
 * Settlement: the ledger transitions of a payment from the moment it is signed to stored reports or a purchase
 * held in doubt (payment safety rules 5 and 8, docs/ARCHITECTURE.md). The purchaser, reconciliation and restore all
 * settle through here, so a paid answer is delivered the same way whoever received it.
 */
import type { PublicClient } from 'viem';
import type { PaymentPayload } from '@x402/core/types';
import type { PurchaseOutcome, PurchaseView } from '../../shared/rpc';
import { transactionHash, type PaidSuccess } from '../../shared/wire';
import { DeskError } from '../base/errors';
import type { Reservations } from '../ledger/reservations';
import type { DeskDb } from '../db/open';
import { purchaseView, type PurchaseLedger } from '../ledger/purchases';
import type { KeptPayments } from '../ledger/kept-payments';
import type { SnapshotStore } from '../library/snapshots';
import type { PaidAnswer } from '../client/service-client';
import type { SettingsStore } from '../settings/settings';
import type { Authorization } from './authorization';
import type { HeldQuote } from './quote-book';
import type { PurchaseSteps } from './purchase-steps';
import { deliveryMismatch, expectationFromLedger, snapshotsFromAnswer } from './delivery';
import { judgeAfterSend } from './after-send';
import { keepWhenDiskFull } from './disk-space';

export interface SettlementDeps {
  db: DeskDb;
  ledger: PurchaseLedger;
  kept: KeptPayments;
  snapshots: SnapshotStore;
  settings: SettingsStore;
  steps: PurchaseSteps;
  /** The fence before a payment leaves: its reservation must still be this process's. */
  reservations: Pick<Reservations, 'assertHeld'>;
  now: () => number;
}

export type Delivery = { ok: true } | { ok: false; message: string };

export class Settlement {
  constructor(private readonly deps: SettlementDeps) {}

  /** The row and, for a service that offers payment-identifier, the sealed payment, before it leaves. */
  recordSigned(
    purchaseId: string,
    signed: { serviceUrl: string; createdAt: string; held: HeldQuote; authorization: Authorization },
    payment: PaymentPayload,
  ): void {
    const { serviceUrl, createdAt, held, authorization } = signed;
    const { ledger } = this.deps;
    this.deps.db
      .transaction(() => {
        this.deps.reservations.assertHeld(purchaseId);
        ledger.insertSigned({
          id: purchaseId,
          serviceUrl,
          handle: held.handle,
          resource: held.quote.resource,
          reportCount: held.quote.reportCount,
          amount: held.quote.amount,
          network: held.quote.network,
          asset: held.quote.asset,
          payer: authorization.from,
          payTo: held.quote.payTo,
          nonce: authorization.nonce,
          validBefore: authorization.validBefore,
          quoteJson: JSON.stringify({
            requirement: held.quote.requirement,
            selection: held.selection,
            expectedIds: held.expectedIds,
            challenge: held.quote.challenge,
            validAfter: authorization.validAfter.toString(),
          }),
          createdAt,
        });
        this.deps.kept.keep(purchaseId, payment, authorization.validBefore);
      })
      .immediate();
    this.deps.steps.emit(purchaseId, 'ledger_written');
    ledger.setState(purchaseId, 'sent');
    this.deps.steps.emit(purchaseId, 'sent');
  }

  /**
   * The paid request failed. One that never left fails the purchase; otherwise after-send.ts judges it, and
   * the purchase fails or is held in doubt.
   */
  async sendFailed(
    purchaseId: string,
    error: unknown,
    held: HeldQuote,
    authorization: Authorization,
    chain: PublicClient | null,
  ): Promise<PurchaseOutcome> {
    const { ledger, steps } = this.deps;
    const deskError = error instanceof DeskError ? error : null;
    if (deskError?.details['notSent'] === true) {
      const message = `${deskError.message} The payment never left this computer; no money moved.`;
      ledger.setState(purchaseId, 'failed', { error: message });
      steps.emit(purchaseId, 'failed');
      return { status: 'failed', purchase: this.view(purchaseId), code: 'service_unreachable', message };
    }
    const sent = {
      ...held.quote,
      payer: authorization.from,
      nonce: authorization.nonce,
      validBefore: authorization.validBefore,
    };
    const verdict = await judgeAfterSend(error, sent, chain);
    if (verdict.state === 'in_doubt') {
      ledger.setState(purchaseId, 'in_doubt', {
        error: verdict.message,
        txHash: verdict.txHash,
        waiting: verdict.waiting,
      });
      steps.emit(purchaseId, 'in_doubt');
      return { status: 'in_doubt', purchase: this.view(purchaseId), message: verdict.message };
    }
    ledger.setState(purchaseId, 'failed', { error: verdict.message });
    steps.emit(purchaseId, 'failed');
    return {
      status: 'failed',
      purchase: this.view(purchaseId),
      code: verdict.code,
      message: verdict.message,
    };
  }

  /**
   * A paid answer received: kept, then stored if it is what was bought (deliver), else held in doubt. A live
   * purchase pins its payee; a recovered one leaves the pin as the person may have changed it since.
   */
  answered(purchaseId: string, answer: PaidAnswer, pinPayee: boolean): PurchaseOutcome {
    const { ledger, steps } = this.deps;
    // Only a transaction hash is kept: anything else the service names is not evidence (the receipt says none).
    ledger.saveResponse(purchaseId, answer.text, transactionHash(answer.settlement?.transaction));
    steps.emit(purchaseId, 'response_received');
    const delivered = keepWhenDiskFull(ledger, purchaseId, () =>
      this.deliver(purchaseId, answer.body, answer.text),
    );
    if (!delivered.ok) {
      steps.emit(purchaseId, 'in_doubt');
      return { status: 'in_doubt', purchase: this.view(purchaseId), message: delivered.message };
    }
    const row = ledger.get(purchaseId);
    if (row && pinPayee) this.deps.settings.pinPayTo(row.service_url, row.pay_to, row.created_at);
    steps.emit(purchaseId, 'completed');
    return { status: 'completed', purchase: this.view(purchaseId) };
  }

  /**
   * Stores the snapshots and completes the ledger row in one transaction (safety rule 5), but only when the
   * answer is what the purchase bought: another handle's reports, ids that were not bought or a wrong count
   * store nothing and hold the purchase in doubt, since the service took the money.
   */
  deliver(purchaseId: string, body: PaidSuccess, text: string): Delivery {
    const { ledger } = this.deps;
    const row = ledger.get(purchaseId);
    if (!row) throw new DeskError('internal', 'A purchase vanished from the ledger.');
    const mismatch = deliveryMismatch(expectationFromLedger(row), body);
    if (mismatch !== null) {
      const receipt = row.tx_hash ? ` (receipt ${row.tx_hash})` : '';
      const message = `The service was paid but answered with ${mismatch}. Nothing was stored. The purchase is held in doubt: ask the service to deliver what was paid for${receipt}; Intel Desk will not pay again for it.`;
      ledger.setState(purchaseId, 'in_doubt', {
        error: message,
        waiting: {
          kind: 'redelivery',
          txHash: row.tx_hash,
          summary: 'Waiting for the service to deliver what was paid for.',
        },
      });
      return { ok: false, message };
    }
    const entries = snapshotsFromAnswer(body, text);
    const storedAt = new Date(this.deps.now()).toISOString();
    this.deps.db
      .transaction(() => {
        this.deps.snapshots.put(row.service_url, row.handle, entries, purchaseId, storedAt);
        ledger.complete(
          purchaseId,
          entries.map((entry) => entry.snapshot.id),
        );
        this.deps.steps.emit(purchaseId, 'stored');
      })
      .immediate();
    return { ok: true };
  }

  view(id: string): PurchaseView {
    const row = this.deps.ledger.get(id);
    if (!row) throw new DeskError('internal', 'A purchase vanished from the ledger.');
    return purchaseView(row);
  }
}
