/**
 * The payments domain put together: the ledger's stores, spending against the caps, the purchaser and its
 * settlement, quotes, reconciliation, and the approval of an assistant's purchase requests. Everything here
 * reads the desk's storage, service, chains and wallet; nothing here is read by them.
 */
import type { PurchaseOutcome, QuoteView, RpcInput, Selection } from '../../shared/rpc';
import type { DeskDb } from '../db/open';
import type { DeskEvents } from '../base/events';
import { requireSafeChainRpc } from '../payments/chain-rpc';
import type { PurchaseLedger } from '../ledger/purchases';
import { KeptPayments } from '../ledger/kept-payments';
import { SpendLedger } from '../ledger/spend';
import { HandleBudgets } from '../ledger/budgets';
import { PurchaseRequests } from '../ledger/purchase-requests';
import { Reservations } from '../ledger/reservations';
import type { SnapshotStore } from '../library/snapshots';
import type { LibrarySecret } from '../library/library-secret';
import type { CatalogService } from '../catalog/catalog-service';
import type { SettingsStore } from '../settings/settings';
import type { DeskWallet } from '../wallet/wallet';
import type { LocalSealer } from '../wallet/sealing';
import { KnownTokens } from '../wallet/balances';
import { QuoteBook } from '../payments/quote-book';
import { Purchaser, type PurchaseRequest } from '../payments/purchaser';
import { PurchaseSteps } from '../payments/purchase-steps';
import { Settlement } from '../payments/settle';
import { Spending } from '../payments/spending';
import { KeptResender } from '../payments/resend-kept';
import { startPurchase } from '../payments/purchase-start';
import { priceChoice, requote, type PricedChoice, type QuotingDeps } from '../payments/quoting';
import { quoteView } from '../payments/quote-view';
import { consentToOverCap, type ConsentDeps } from '../payments/consent';
import { reconcilePurchases } from '../payments/reconcile';
import { RequestApprovals } from '../payments/request-approvals';
import { TokenDomains } from '../payments/token-domain';
import type { DeskService } from './service';
import type { DeskChains } from './chains';
import type { TeamGate } from '../payments/team-gate';

export interface PaymentsParts {
  db: DeskDb;
  /** The purchase ledger, made before the team (which reads how purchases ended) and payments. */
  ledger: PurchaseLedger;
  events: DeskEvents;
  now: () => number;
  settings: SettingsStore;
  wallet: DeskWallet;
  /** The key that seals kept payments (and the library secret). */
  sealer: LocalSealer;
  snapshots: SnapshotStore;
  librarySecret: LibrarySecret;
  catalogService: CatalogService;
  service: DeskService;
  chains: DeskChains;
  demo: boolean;
  demoAsset: `0x${string}` | null;
  /** The team's reservation, taken before this desk's own (payments/team-gate.ts). */
  team: TeamGate;
}

export class Payments {
  readonly ledger: PurchaseLedger;
  /** Sealed payments kept until validBefore for services that offer payment-identifier (decision 0024). */
  readonly kept: KeptPayments;
  readonly spend: SpendLedger;
  readonly budgets: HandleBudgets;
  /** Purchases an assistant asked for (the MCP server), waiting for the person's approval. */
  readonly requests: PurchaseRequests;
  /** The reservation each payment takes before signing, shared by every process on the data folder. */
  readonly reservations: Reservations;
  /** What counts against the caps, payments being signed included, and the facts the payment rules judge. */
  readonly spending: Spending;
  /** The ledger transitions from a signed payment to stored reports, for purchases, reconciliation and restore. */
  readonly settlement: Settlement;
  /** Lost answers asked for again with the payment already sent (decision 0024). */
  readonly keptResender: KeptResender;
  readonly purchaser: Purchaser;
  readonly quotes: QuoteBook;
  /** The tokens services asked to be paid in, learned from their quotes (for balances). */
  readonly tokens = new KnownTokens();
  readonly approvals: RequestApprovals;
  /** What consent to a raised limit or a payment over one reads (consent.ts). */
  readonly consent: ConsentDeps;
  private readonly quoting: QuotingDeps;

  constructor(private readonly parts: PaymentsParts) {
    const { db, events, now, settings, wallet, snapshots, service, chains } = parts;
    this.ledger = parts.ledger;
    this.spend = new SpendLedger(db);
    this.budgets = new HandleBudgets(db, now, events);
    this.requests = new PurchaseRequests(db, now, events);
    this.kept = new KeptPayments(db, parts.sealer, now);
    this.quotes = new QuoteBook(now);
    this.reservations = new Reservations(db, now);
    const steps = new PurchaseSteps((purchaseId, step, quoteId) => events.step(purchaseId, quoteId, step));
    const { ledger, kept, reservations } = this;
    this.settlement = new Settlement({ db, reservations, ledger, kept, snapshots, settings, steps, now });
    this.spending = new Spending({
      ledger,
      spend: this.spend,
      budgets: this.budgets,
      settings,
      reservations,
      now,
    });
    this.keptResender = new KeptResender({
      kept,
      clientFor: (serviceUrl) => service.connection.clientFor(serviceUrl),
      settlement: this.settlement,
      reservations,
    });
    this.quoting = {
      client: () => service.client(),
      catalogService: parts.catalogService,
      snapshots,
      quotes: this.quotes,
      tokens: this.tokens,
      demo: parts.demo,
      demoAsset: parts.demoAsset,
      librarySecret: parts.librarySecret,
    };
    const tokenDomains = new TokenDomains();
    this.purchaser = new Purchaser({
      db,
      ledger,
      wallet,
      quotes: this.quotes,
      client: () => service.client(),
      requote: (held) => requote(this.quoting, held),
      chain: (network) => chains.chain(network),
      serviceFailedSince: (at) => service.connection.failedSince(at),
      checkTokenDomain: (quote) => {
        requireSafeChainRpc(chains.chainRpc(quote.network));
        return tokenDomains.assertMatches(quote, chains.chain(quote.network));
      },
      clock: (network) => chains.clockSamples(network, service.client().serviceClock()),
      now,
      steps,
      settlement: this.settlement,
      spending: this.spending,
      reservations,
      ownedIds: (serviceUrl, handle) => snapshots.ownedIds(serviceUrl, handle),
      team: parts.team,
    });
    this.consent = {
      wallet,
      settings,
      budgets: this.budgets,
      quotes: this.quotes,
      spending: this.spending,
      librarySecret: parts.librarySecret,
    };
    this.approvals = new RequestApprovals({
      requests: this.requests,
      quotes: this.quotes,
      serviceUrl: () => service.client().baseUrl,
      quote: (input) => this.quote(input),
      price: (handle, selection, includeOwned) => this.price(handle, selection, includeOwned),
      start: (input) => this.startWithConsent(input),
    });
  }

  /** quote.get's answer: the live price of a choice and what the payment rules say of it (quote-view.ts). */
  quote(input: RpcInput<'quote.get'>): Promise<QuoteView> {
    const { settings, team } = this.parts;
    return quoteView(
      { ...this.quoting, settings, spending: this.spending, ledger: this.ledger, team },
      input,
    );
  }

  price(handle: string, selection: Selection, includeOwned: boolean): Promise<PricedChoice> {
    return priceChoice(this.quoting, handle, selection, includeOwned);
  }

  /** purchase.start: the person's consent to going over a limit checked first (consent.ts). */
  async startWithConsent(input: RpcInput<'purchase.start'>): Promise<PurchaseOutcome> {
    return this.start(await consentToOverCap(this.consent, input));
  }

  /** Starts a purchase (payments/purchase-start.ts): its reports read with the library secret, or paid for. */
  start(request: PurchaseRequest): Promise<PurchaseOutcome> {
    const { db, snapshots, librarySecret, service, now } = this.parts;
    return startPurchase(
      {
        quotes: this.quotes,
        purchaser: this.purchaser,
        settlement: this.settlement,
        librarySecret,
        secretRead: {
          db,
          ledger: this.ledger,
          snapshots,
          client: () => service.client(),
          librarySecret,
          now,
        },
      },
      request,
    );
  }

  /** Settles what can be settled of unfinished purchases; the rest records what it waits for. */
  reconcile(): Promise<void> {
    const { chains, now } = this.parts;
    return reconcilePurchases({
      ledger: this.ledger,
      kept: this.kept,
      settlement: this.settlement,
      resendKept: (row, silentServices) => this.keptResender.resend(row, silentServices),
      chain: (network) => chains.chain(network),
      rpcUrlFor: (network) => chains.rpcUrlFor(network),
      atWork: (purchaseId) => this.reservations.atWork(purchaseId),
      now,
    });
  }
}
