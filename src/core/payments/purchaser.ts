/**
 * The money path: from a held quote to stored snapshots. It enforces the payment safety rules of DESIGN.md
 * and records every step in the ledger before the next one can lose anything.
 */
import { randomUUID } from 'node:crypto';
import type { Hex } from 'viem';
import type { PurchaseOutcome, PurchaseView } from '../../shared/rpc';
import type { PaidSuccess } from '../../shared/wire';
import { DeskError, refused } from '../errors';
import type { DeskDb } from '../db/open';
import type { PurchaseLedger } from '../ledger/purchases';
import { LIBRARY_SECRET_NETWORK, purchaseView } from '../ledger/purchases';
import type { SnapshotStore } from '../cache/snapshots';
import type { ServiceClient } from '../client/service-client';
import type { SettingsStore } from '../settings';
import type { DeskWallet } from '../wallet/wallet';
import {
  assertSignedBy,
  newAuthorization,
  paymentHeader,
  typedData,
  type Authorization,
} from './authorization';
import { quoteDifference, type Quote } from './quote';
import type { HeldQuote, QuoteBook } from './quote-book';
import {
  deliveryMismatch,
  expectationFromLedger,
  snapshotsFromAnswer,
  type DeliveryExpectation,
} from './delivery';

export type PurchaseStep =
  | 'quoted'
  | 'signing'
  | 'signed'
  | 'ledger_written'
  | 'sent'
  | 'response_received'
  | 'stored'
  | 'completed'
  | 'failed'
  | 'in_doubt';

export interface PurchaseRequest {
  quoteId: string;
  confirmedAmount: string;
  acceptPayToChange?: boolean | undefined;
  acceptOverCap?: boolean | undefined;
}

export interface PurchaserDeps {
  db: DeskDb;
  ledger: PurchaseLedger;
  snapshots: SnapshotStore;
  settings: SettingsStore;
  wallet: DeskWallet;
  quotes: QuoteBook;
  client: () => ServiceClient;
  /** Re-prices the held quote's selection from a fresh challenge (validated like the first one). */
  requote: (held: HeldQuote) => Promise<HeldQuote>;
  librarySecret: () => string | null;
  /** False when the desk's last exchange with the service failed to get an answer. */
  serviceReachable: () => boolean;
  now: () => number;
  onStep: (purchaseId: string, step: PurchaseStep) => void;
}

interface PendingExternal {
  held: HeldQuote;
  authorization: Authorization;
}

function startOfLocalDay(now: number): Date {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day;
}

const usd = (amount: bigint) => `$${(Number(amount) / 1e6).toFixed(2)}`;

export class Purchaser {
  private readonly pendingExternal = new Map<string, PendingExternal>();

  constructor(private readonly deps: PurchaserDeps) {}

  /** The quote to pay: the held one while fresh, else a new challenge that must say the same (rule 2). */
  private async currentQuote(request: PurchaseRequest): Promise<{ held: HeldQuote; contacted: boolean }> {
    const held = this.deps.quotes.get(request.quoteId);
    if (!held) throw refused('quote_unknown', 'This price quote is no longer known; ask for a new price.');
    if (held.serviceUrl !== this.deps.client().baseUrl) {
      throw refused('quote_other_service', 'This quote came from another service than the one now selected.');
    }
    // A fresh quote is reused (one round trip per purchase) unless the service has failed since.
    if (this.deps.quotes.isFresh(held) && this.deps.serviceReachable()) return { held, contacted: false };
    const fresh = await unreachableBeforeSigning(() => this.deps.requote(held));
    const change = quoteDifference(held.quote, fresh.quote);
    if (change)
      throw refused('quote_changed', `The price must be confirmed again: ${change}.`, { quoteId: fresh.id });
    return { held: fresh, contacted: true };
  }

  private checkPolicy(quote: Quote, request: PurchaseRequest, serviceUrl: string): void {
    if (request.confirmedAmount !== quote.amount.toString()) {
      throw refused(
        'amount_not_confirmed',
        `You confirmed ${usd(BigInt(request.confirmedAmount))} but the payment would be ${usd(quote.amount)}; nothing was signed.`,
      );
    }
    const settings = this.deps.settings.get();
    if (!request.acceptOverCap) {
      const perPurchaseCap = BigInt(Math.round(settings.perPurchaseCapUsd * 1e6));
      if (quote.amount > perPurchaseCap) {
        throw refused(
          'over_purchase_cap',
          `${usd(quote.amount)} is above your per-purchase cap of ${usd(perPurchaseCap)}; confirm again to go over it.`,
        );
      }
      const dailyCap = BigInt(Math.round(settings.dailyCapUsd * 1e6));
      const spent = this.deps.ledger.spentSince(startOfLocalDay(this.deps.now()));
      if (spent + quote.amount > dailyCap) {
        throw refused(
          'over_daily_cap',
          `With ${usd(spent)} already spent today, ${usd(quote.amount)} more goes over your daily cap of ${usd(dailyCap)}; confirm again to go over it.`,
        );
      }
    }
    const pinned = this.deps.settings.pinnedPayTo(serviceUrl);
    if (pinned && pinned.toLowerCase() !== quote.payTo.toLowerCase() && !request.acceptPayToChange) {
      throw refused(
        'payee_changed',
        `This service used to be paid at ${pinned} and now asks for ${quote.payTo}; accept the new payee to continue.`,
        {
          pinned,
          payTo: quote.payTo,
        },
      );
    }
  }

  async start(request: PurchaseRequest): Promise<PurchaseOutcome> {
    const { held, contacted } = await this.currentQuote(request);
    const client = this.deps.client();
    const secret = this.deps.librarySecret();
    if (secret !== null) return this.readWithSecret(held, secret);
    this.checkPolicy(held.quote, request, client.baseUrl);
    const kind = this.deps.wallet.kind();
    const payer = this.deps.wallet.address();
    if (kind === null || payer === null)
      throw new DeskError('no_wallet', 'Connect a wallet before buying.', 'wallet');
    if (kind === 'keystore' && !this.deps.wallet.unlockedAccount())
      throw new DeskError('wallet_locked', 'Unlock the wallet with its passphrase before buying.', 'wallet');
    // Nothing is signed for a service that cannot be reached: no signature, no ledger row, no half-state.
    if (!contacted) await unreachableBeforeSigning(() => client.probe());
    const authorization = newAuthorization(held.quote, payer, this.deps.now());
    if (kind === 'external') {
      const purchaseId = randomUUID();
      this.pendingExternal.set(purchaseId, { held, authorization });
      const data = typedData(held.quote, authorization);
      return {
        status: 'needs_signature',
        request: {
          purchaseId,
          typedData: {
            domain: data.domain,
            types: { TransferWithAuthorization: [...data.types.TransferWithAuthorization] },
            primaryType: 'TransferWithAuthorization',
            message: {
              from: authorization.from,
              to: authorization.to,
              value: authorization.value.toString(),
              validAfter: authorization.validAfter.toString(),
              validBefore: authorization.validBefore.toString(),
              nonce: authorization.nonce,
            },
          },
        },
      };
    }
    const account = this.deps.wallet.unlockedAccount();
    if (!account)
      throw new DeskError('wallet_locked', 'Unlock the wallet with its passphrase before buying.', 'wallet');
    const purchaseId = randomUUID();
    this.deps.onStep(purchaseId, 'signing');
    const signature = await account.signTypedData(typedData(held.quote, authorization));
    return this.pay(purchaseId, held, authorization, signature);
  }

  async submitSignature(purchaseId: string, signature: Hex): Promise<PurchaseOutcome> {
    const pending = this.pendingExternal.get(purchaseId);
    if (!pending) throw refused('purchase_unknown', 'This purchase is not waiting for a signature any more.');
    this.pendingExternal.delete(purchaseId);
    if (Number(pending.authorization.validBefore) * 1000 < this.deps.now() + 10_000) {
      throw refused(
        'authorization_expired',
        'The signature came too late: the payment window closed. Nothing was sent.',
      );
    }
    return this.pay(purchaseId, pending.held, pending.authorization, signature);
  }

  private async pay(
    purchaseId: string,
    held: HeldQuote,
    authorization: Authorization,
    signature: Hex,
  ): Promise<PurchaseOutcome> {
    const { ledger, onStep } = this.deps;
    await assertSignedBy(held.quote, authorization, signature);
    onStep(purchaseId, 'signed');
    const client = this.deps.client();
    const createdAt = new Date(this.deps.now()).toISOString();
    ledger.insertSigned({
      id: purchaseId,
      serviceUrl: client.baseUrl,
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
      }),
      createdAt,
    });
    onStep(purchaseId, 'ledger_written');
    ledger.setState(purchaseId, 'sent');
    onStep(purchaseId, 'sent');
    const header = paymentHeader(
      held.quote,
      authorization,
      signature,
      `${client.baseUrl}${held.quote.resource}`,
    );
    let answer;
    try {
      answer = await client.pay(held.quote.resource, header);
    } catch (error) {
      const desk = error instanceof DeskError ? error : null;
      if (desk?.details['notSent'] === true) {
        const message = `${desk.message} The payment never left this computer; no money moved.`;
        ledger.setState(purchaseId, 'failed', { error: message });
        onStep(purchaseId, 'failed');
        return { status: 'failed', purchase: this.view(purchaseId), code: 'service_unreachable', message };
      }
      if (
        !desk ||
        desk.kind === 'network' ||
        desk.code === 'service_malformed' ||
        desk.code === 'service_oversize'
      ) {
        const message = `The answer was lost (${desk?.message ?? 'unknown error'}). The payment may or may not have settled; it is held as in doubt and will be checked, never paid again automatically.`;
        const until = new Date(Number(authorization.validBefore) * 1000).toISOString();
        ledger.setState(purchaseId, 'in_doubt', {
          error: message,
          waiting: { kind: 'expiry', until, summary: `Waiting until ${until}.` },
        });
        onStep(purchaseId, 'in_doubt');
        return { status: 'in_doubt', purchase: this.view(purchaseId), message };
      }
      ledger.setState(purchaseId, 'failed', { error: desk.message });
      onStep(purchaseId, 'failed');
      return { status: 'failed', purchase: this.view(purchaseId), code: desk.code, message: desk.message };
    }
    ledger.saveResponse(purchaseId, answer.text, answer.settlement?.transaction ?? null);
    onStep(purchaseId, 'response_received');
    const delivered = this.deliver(purchaseId, answer.body, answer.text);
    if (!delivered.ok) {
      onStep(purchaseId, 'in_doubt');
      return { status: 'in_doubt', purchase: this.view(purchaseId), message: delivered.message };
    }
    this.deps.settings.pinPayTo(client.baseUrl, held.quote.payTo, createdAt);
    onStep(purchaseId, 'completed');
    return { status: 'completed', purchase: this.view(purchaseId) };
  }

  /**
   * Stores the snapshots and completes the ledger row in one transaction (safety rule 5), but only when the
   * answer is what the purchase bought: another handle's reports, ids that were not bought or a wrong count
   * store nothing and hold the purchase in doubt, since the service took the money.
   */
  deliver(
    purchaseId: string,
    body: PaidSuccess,
    text: string,
  ): { ok: true } | { ok: false; message: string } {
    const row = this.deps.ledger.get(purchaseId);
    if (!row) throw new DeskError('internal', 'A purchase vanished from the ledger.');
    const mismatch = deliveryMismatch(expectationFromLedger(row), body);
    if (mismatch !== null) {
      const receipt = row.tx_hash ? ` (receipt ${row.tx_hash})` : '';
      const message = `The service was paid but answered with ${mismatch}. Nothing was stored. The purchase is held in doubt: ask the service to deliver what was paid for${receipt}; Intel Desk will not pay again for it.`;
      this.deps.ledger.setState(purchaseId, 'in_doubt', {
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
    this.deps.db.transaction(() => {
      this.deps.snapshots.put(row.service_url, row.handle, entries, purchaseId, storedAt);
      this.deps.ledger.complete(
        purchaseId,
        entries.map((entry) => entry.snapshot.id),
      );
      this.deps.onStep(purchaseId, 'stored');
    })();
    return { ok: true };
  }

  private async readWithSecret(held: HeldQuote, secret: string): Promise<PurchaseOutcome> {
    const client = this.deps.client();
    const text = await client.readWithSecretText(held.quote.resource, secret);
    const expected: DeliveryExpectation = {
      handle: held.handle,
      reportCount: held.quote.reportCount,
      ids: held.expectedIds,
    };
    const mismatch = deliveryMismatch(expected, text.body);
    if (mismatch !== null) {
      throw new DeskError(
        'delivery_mismatch',
        `The service answered with ${mismatch}. Nothing was stored and nothing was paid.`,
        'service',
      );
    }
    const id = randomUUID();
    const createdAt = new Date(this.deps.now()).toISOString();
    const entries = snapshotsFromAnswer(text.body, text.text);
    this.deps.db.transaction(() => {
      this.deps.ledger.insertFree(
        {
          id,
          serviceUrl: client.baseUrl,
          handle: held.handle,
          resource: held.quote.resource,
          reportCount: entries.length,
          network: LIBRARY_SECRET_NETWORK,
          asset: '',
          payer: LIBRARY_SECRET_NETWORK,
          payTo: '',
          quoteJson: JSON.stringify({ selection: held.selection }),
          createdAt,
        },
        entries.map((entry) => entry.snapshot.id),
      );
      this.deps.snapshots.put(client.baseUrl, held.handle, entries, id, createdAt);
    })();
    return { status: 'completed', purchase: this.view(id) };
  }

  private view(id: string): PurchaseView {
    const row = this.deps.ledger.get(id);
    if (!row) throw new DeskError('internal', 'A purchase vanished from the ledger.');
    return purchaseView(row);
  }
}

/** Runs a pre-signing contact with the service; a network failure becomes a clear service_unreachable. */
async function unreachableBeforeSigning<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof DeskError && error.kind === 'network' && error.code !== 'service_unreachable') {
      throw new DeskError(
        'service_unreachable',
        `${error.message} Nothing was signed or sent; buy again when the service is back.`,
        'network',
        {},
        { cause: error },
      );
    }
    throw error;
  }
}
