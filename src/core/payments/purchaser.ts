/**
 * The money path: from a held quote to stored snapshots. It enforces the payment safety rules of docs/ARCHITECTURE.md
 * and records every step in the ledger before the next one can lose anything.
 */
import { randomUUID } from 'node:crypto';
import type { Hex, PublicClient } from 'viem';
import type { PaidWith, PurchaseOutcome } from '../../shared/rpc';
import { DeskError, refused } from '../base/errors';
import type { DeskDb } from '../db/open';
import type { PurchaseLedger } from '../ledger/purchases';
import type { ServiceClient } from '../client/service-client';
import type { DeskWallet } from '../wallet/wallet';
import {
  assertSignedBy,
  newAuthorization,
  paymentPayload,
  typedData,
  type Authorization,
} from './authorization';
import { quoteDifference } from './quote';
import type { HeldQuote, QuoteBook } from './quote-book';
import type { ClockSample } from '../client/clock-sample';
import type { Spending } from './spending';
import type { QuoteChangedDetails } from '../../shared/rpc-errors';
import type { PurchaseSteps } from './purchase-steps';
import type { Settlement } from './settle';
import { requireRoomToStore } from './disk-space';
import {
  assertNotOwnedSinceQuote,
  assertSelectionFree,
  samePurchaseTarget,
  type GuardedSelection,
} from './selection-guard';
import type { Reservations } from '../ledger/reservations';
import type { TeamGate } from './team-gate';
import { externalRequest, unreachableBeforeSigning } from './before-signing';

export interface PurchaseRequest {
  quoteId: string;
  confirmedAmount: string;
  acceptPayToChange?: boolean | undefined;
  acceptOverCap?: boolean | undefined;
  /** How to settle: a payment, or a read with the library secret; unsaid, the secret when one is set. */
  paidWith?: PaidWith | undefined;
}

export interface PurchaserDeps {
  db: DeskDb;
  ledger: PurchaseLedger;
  wallet: DeskWallet;
  quotes: QuoteBook;
  client: () => ServiceClient;
  /** Re-prices the held quote's selection from a fresh challenge (validated like the first one). */
  requote: (held: HeldQuote) => Promise<HeldQuote>;
  /** A read-only client for the network's chain, when an RPC URL is known (to confirm a refusal). */
  chain: (network: string) => PublicClient | null;
  /**
   * True when an exchange with the service failed to get an answer at or after `at` (ms), even if it has
   * answered since: a quote taken before an outage is asked for again, whatever a probe found after it.
   */
  serviceFailedSince: (at: number) => boolean;
  /** Refuses a token whose EIP-712 name or version on chain is not what the payment would be signed for. */
  checkTokenDomain: (quote: HeldQuote['quote']) => Promise<void>;
  /** The service's and the chain's clocks against the desk's, measured now, to date the authorization. */
  clock: (network: string) => Promise<ClockSample[]>;
  now: () => number;
  /** Each step as it happens, tagged with the quote the person confirmed. */
  steps: PurchaseSteps;
  /** The ledger transitions from a signed payment to stored reports (settle.ts). */
  settlement: Settlement;
  /** What counts against the caps, reserved payments of every process included. */
  spending: Spending;
  /** The reservation each payment takes before it is signed, seen by every process on the data folder. */
  reservations: Reservations;
  /** The handle's reports the library holds from this service. */
  ownedIds: (serviceUrl: string, handle: string) => Set<string>;
  /** The team's reservation, taken before the desk's own (a gate that does nothing outside a team). */
  team: TeamGate;
}

/** The quote a purchase pays: the held one while fresh, else a new one; `contacted` when the service answered. */
export interface CurrentQuote {
  held: HeldQuote;
  contacted: boolean;
}

interface PendingExternal {
  held: HeldQuote;
  authorization: Authorization;
  /** The quotes it holds (in use, not spent: only a valid signature, submitted, spends them). */
  quoteIds: string[];
  target: GuardedSelection;
  /** What the person agreed to at the start, judged again when the signature comes back. */
  consent: PurchaseRequest;
}

export class Purchaser {
  private readonly pendingExternal = new Map<string, PendingExternal>();
  private readonly submitted = new Set<string>();
  constructor(private readonly deps: PurchaserDeps) {}

  /** The quote to pay: the held one while fresh, else a new challenge that must say the same (rule 2). */
  async currentQuote(request: PurchaseRequest): Promise<CurrentQuote> {
    const held = this.deps.quotes.get(request.quoteId);
    if (!held) throw refused('quote_unknown', 'This price quote is no longer known; ask for a new price.');
    if (held.serviceUrl !== this.deps.client().baseUrl) {
      throw refused('quote_other_service', 'This quote came from another service than the one now selected.');
    }
    // A fresh quote is reused (one round trip per purchase) unless the service has failed since.
    if (this.deps.quotes.isFresh(held) && !this.deps.serviceFailedSince(held.fetchedAt))
      return { held, contacted: false };
    const fresh = await unreachableBeforeSigning(() => this.deps.requote(held));
    const change = quoteDifference(held.quote, fresh.quote);
    if (change) {
      const details: QuoteChangedDetails = {
        quoteId: fresh.id,
        amount: fresh.quote.amount.toString(),
      };
      throw refused('quote_changed', `The price must be confirmed again: ${change}.`, details);
    }
    return { held: fresh, contacted: true };
  }

  /**
   * The guard and the rules before anything is signed: no overlapping payment reserved or unresolved in any
   * process, and the caps, the handle's budget and the pinned payee (policy.ts). `excluding`: purchases whose
   * own reservations do not count (one judged again after it reserved, requests it replaces).
   */
  private check(
    target: GuardedSelection,
    held: HeldQuote,
    request: PurchaseRequest,
    excluding: readonly string[] = [],
  ): void {
    assertSelectionFree(this.deps, target, excluding);
    assertNotOwnedSinceQuote(held, this.deps.ownedIds(target.serviceUrl, held.handle));
    this.deps.spending.enforce(held, request, target.serviceUrl, excluding);
  }

  /**
   * Takes the payment's reservation in one write transaction with the checks (BEGIN IMMEDIATE: no other
   * process can reserve or commit between the check and the insert). Nothing is signed before it commits.
   * `replacing`: this process's own unanswered signature requests for the same reports, dropped with it.
   */
  private reserve(
    purchaseId: string,
    target: GuardedSelection,
    held: HeldQuote,
    request: PurchaseRequest,
    authorization: Authorization,
    replacing: readonly string[] = [],
  ): void {
    const { db, reservations } = this.deps;
    db.transaction(() => {
      reservations.pruneLapsed();
      for (const id of replacing) reservations.release(id);
      this.check(target, held, request);
      reservations.insert({
        purchaseId,
        serviceUrl: target.serviceUrl,
        handle: held.handle,
        selection: held.selection,
        amount: held.quote.amount,
        expiresAt: Number(authorization.validBefore) * 1000,
      });
    }).immediate();
  }

  /**
   * The team's reservation first (one level up, in PostgreSQL), then this data folder's: a refusal of the
   * second gives the first back, so a desk that signs nothing holds nothing anywhere.
   */
  private async reserveEverywhere(
    purchaseId: string,
    target: GuardedSelection,
    held: HeldQuote,
    request: PurchaseRequest,
    authorization: Authorization,
    replacing: readonly string[] = [],
  ): Promise<void> {
    await this.deps.team.reserve({
      purchaseId,
      serviceUrl: target.serviceUrl,
      handle: held.handle,
      reportIds: held.expectedIds,
      amount: held.quote.amount,
      network: held.quote.network,
      asset: held.quote.asset,
      payer: authorization.from,
      nonce: authorization.nonce,
      validBefore: authorization.validBefore,
      acceptOverCap: request.acceptOverCap === true,
    });
    try {
      this.reserve(purchaseId, target, held, request, authorization, replacing);
    } catch (error) {
      await this.deps.team.release(purchaseId);
      throw error;
    }
  }

  /** An external signature came back: its reservation must still be this process's, and the rules still hold. */
  private confirmReserved(purchaseId: string, pending: PendingExternal): void {
    this.deps.db
      .transaction(() => {
        this.deps.reservations.assertHeld(purchaseId);
        this.check(pending.target, pending.held, pending.consent, [purchaseId]);
      })
      .immediate();
  }

  /**
   * Pays for the claimed quote (payment-start.ts claims it and reads with the library secret instead when
   * asked). `keepQuote` is called once the quote is spent or held for a signature: until then a failure gives
   * it back.
   */
  async start(
    request: PurchaseRequest,
    current: CurrentQuote,
    keepQuote: () => void,
  ): Promise<PurchaseOutcome> {
    const { held, contacted } = current;
    const { steps } = this.deps;
    const client = this.deps.client();
    if (held.secretReadOnly) {
      throw refused(
        'quote_secret_only',
        'This price is on a network Intel Desk does not pay on, so it can only be read with the library secret; nothing was signed.',
      );
    }
    const target = { serviceUrl: client.baseUrl, handle: held.handle, selection: held.selection };
    // A refusal before any network contact; the reservation below asks again, in its transaction. A
    // signature request nobody answered (the wallet was closed, the person said no) can never pay, as only
    // this desk sends it: a new one for the same reports replaces it.
    const kind = this.deps.wallet.kind();
    this.check(target, held, request, kind === 'external' ? this.pendingFor(target) : []);
    const payer = this.deps.wallet.address();
    if (kind === null || payer === null)
      throw new DeskError('no_wallet', 'Connect a wallet before buying.', 'wallet');
    const account = kind === 'keystore' ? this.deps.wallet.signingAccount() : null;
    if (kind === 'keystore' && !account)
      throw new DeskError('wallet_locked', 'Unlock the wallet with its passphrase before buying.', 'wallet');
    // Nothing is signed for a service that cannot be reached: no signature, no ledger row, no half-state.
    if (!contacted) await unreachableBeforeSigning(() => client.probe());
    await this.deps.checkTokenDomain(held.quote);
    await requireRoomToStore(this.deps.db, held.quote.reportCount);
    const clock = await this.deps.clock(held.quote.network);
    const authorization = newAuthorization(held.quote, payer, this.deps.now(), clock);
    const purchaseId = randomUUID();
    if (kind === 'external' || !account) {
      const replaced = this.pendingFor(target);
      await this.reserveEverywhere(purchaseId, target, held, request, authorization, replaced);
      for (const id of replaced) this.forgetPending(id);
      if (held.id !== request.quoteId) this.deps.quotes.claim(held.id);
      const quoteIds = [request.quoteId, held.id];
      this.pendingExternal.set(purchaseId, { held, authorization, quoteIds, target, consent: request });
      steps.confirmed(purchaseId, request.quoteId);
      keepQuote();
      return { status: 'needs_signature', request: externalRequest(purchaseId, held, authorization) };
    }
    await this.reserveEverywhere(purchaseId, target, held, request, authorization);
    this.deps.quotes.spend(request.quoteId);
    this.deps.quotes.spend(held.id);
    keepQuote();
    try {
      steps.confirmed(purchaseId, request.quoteId);
      steps.emit(purchaseId, 'signing');
      const signature = await account.signTypedData(typedData(held.quote, authorization));
      return await this.send(purchaseId, held, authorization, signature);
    } finally {
      this.deps.reservations.release(purchaseId);
      steps.forget(purchaseId);
      this.deps.team.ended(purchaseId);
    }
  }

  /** This process's unanswered signature requests for (some of) the target's reports. */
  private pendingFor(target: GuardedSelection): string[] {
    return [...this.pendingExternal]
      .filter(([, pending]) => samePurchaseTarget(pending.target, target))
      .map(([id]) => id);
  }

  /** Drops an unanswered signature request; its reservation is released by the caller or with it here. */
  private forgetPending(purchaseId: string): void {
    const pending = this.pendingExternal.get(purchaseId);
    if (!pending) return;
    this.pendingExternal.delete(purchaseId);
    this.deps.reservations.release(purchaseId);
    void this.deps.team.release(purchaseId);
    this.deps.steps.forget(purchaseId);
    for (const quoteId of pending.quoteIds) this.deps.quotes.release(quoteId);
  }

  /**
   * The connected wallet will not sign this request (it refused, ended its session, or the window gave up
   * waiting): it is forgotten, so a signature that comes later is refused and pays nothing.
   */
  abandonSignature(purchaseId: string): boolean {
    if (!this.pendingExternal.has(purchaseId)) return false;
    this.forgetPending(purchaseId);
    return true;
  }

  async submitSignature(purchaseId: string, signature: Hex): Promise<PurchaseOutcome> {
    const pending = this.pendingExternal.get(purchaseId);
    if (!pending) {
      if (this.submitted.has(purchaseId)) {
        throw refused(
          'signature_already_submitted',
          'This purchase already received its signature and its payment was sent once; nothing more was sent.',
        );
      }
      throw refused('purchase_unknown', 'This purchase is not waiting for a signature any more.');
    }
    // Taken before any await, so of two submissions at once only the first goes on.
    this.pendingExternal.delete(purchaseId);
    this.submitted.add(purchaseId);
    const { held, authorization, quoteIds } = pending;
    let paying = false;
    try {
      if (Number(authorization.validBefore) * 1000 < this.deps.now() + 10_000) {
        throw refused(
          'authorization_expired',
          'The signature came too late: the payment window closed. Nothing was sent.',
        );
      }
      await assertSignedBy(held.quote, authorization, signature, this.deps.chain(held.quote.network));
      // The person may have taken minutes to sign: other purchases were paid meanwhile, or the day turned.
      this.confirmReserved(purchaseId, pending);
      for (const quoteId of quoteIds) this.deps.quotes.spend(quoteId);
      paying = true;
      return await this.send(purchaseId, held, authorization, signature);
    } finally {
      this.deps.steps.forget(purchaseId);
      this.deps.reservations.release(purchaseId);
      if (!paying) {
        // Nothing was sent: the quote may be used again, and this purchase is over.
        this.submitted.delete(purchaseId);
        for (const quoteId of quoteIds) this.deps.quotes.release(quoteId);
        void this.deps.team.release(purchaseId);
      } else {
        this.deps.team.ended(purchaseId);
      }
    }
  }

  private async send(
    purchaseId: string,
    held: HeldQuote,
    authorization: Authorization,
    signature: Hex,
  ): Promise<PurchaseOutcome> {
    const { settlement, steps } = this.deps;
    await assertSignedBy(held.quote, authorization, signature, this.deps.chain(held.quote.network));
    steps.emit(purchaseId, 'signed');
    const client = this.deps.client();
    const createdAt = new Date(this.deps.now()).toISOString();
    const payment = await paymentPayload(
      held.quote,
      authorization,
      signature,
      `${client.baseUrl}${held.quote.resource}`,
      purchaseId,
    );
    settlement.recordSigned(
      purchaseId,
      { serviceUrl: client.baseUrl, createdAt, held, authorization },
      payment,
    );
    let answer;
    try {
      answer = await client.pay(held.quote.resource, payment);
    } catch (error) {
      const chain = this.deps.chain(held.quote.network);
      return settlement.sendFailed(purchaseId, error, held, authorization, chain);
    }
    return settlement.answered(purchaseId, answer, true);
  }
}
