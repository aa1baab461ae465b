/** Everything one running desk holds: storage, the service client, wallet, secrets, and the purchaser. */
import path from 'node:path';
import { mkdirSync, readdirSync } from 'node:fs';
import { chmodIfPresent } from './owner-only';
import type { PublicClient } from 'viem';
import { openDeskDb, type DeskDb, type OpenedDb } from './db/open';
import { IntegrityWatch, isCorruption } from './db/integrity';
import { PurchaseLedger } from './ledger/purchases';
import { KeptPayments } from './ledger/kept-payments';
import { SpendLedger } from './ledger/spend';
import { HandleBudgets } from './ledger/budgets';
import { PurchaseRequests } from './ledger/purchase-requests';
import { SnapshotStore } from './cache/snapshots';
import { CatalogCache } from './cache/catalog';
import { CatalogService } from './catalog/catalog-service';
import { DossierDrafts } from './cache/dossier-drafts';
import { ReportLabelStore } from './cache/report-labels';
import { SavedSearchStore } from './cache/saved-searches';
import { SettingsStore } from './settings';
import { DeskWallet } from './wallet/wallet';
import { walletFileIn } from './wallet/folder-wallet';
import { LocalSealer } from './wallet/sealing';
import { TeamDesk } from './team/team-desk';
import { TeamMembership } from './team/membership';
import { LibrarySecret } from './library-secret';
import type { ServiceClient } from './client/service-client';
import { ServiceConnection } from './client/connection';
import { KnownTokens } from './wallet/balances';
import { QuoteBook } from './payments/quote-book';
import { Purchaser, type PurchaseRequest } from './payments/purchaser';
import { PurchaseSteps } from './payments/purchase-steps';
import { Settlement } from './payments/settle';
import { Spending } from './payments/spending';
import { Reservations } from './ledger/reservations';
import { KeptResender } from './payments/resend-kept';
import { OtherWriters } from './db/other-writers';
import { startPurchase } from './payments/purchase-start';
import { PurchaseRestores } from './restore/restores';
import { requote } from './quoting';
import { readChainClock, type ClockSample } from './payments/chain-clock';
import { ChainClients, chainRpcFor, requireSafeChainRpc, type ChainRpc } from './payments/chain-rpc';
import { TokenDomains } from './payments/token-domain';
import { DeskEvents } from './events';
import { LibraryBackups } from './backup/scheduler';
import { backupsFolder } from './backup/backups-folder';
import { encryptedOrLocal } from '../shared/transport';
import { requireEncryptedOrLocal } from './transport';
import type { PurchaseOutcome } from '../shared/rpc';
import type { DeskCoreOptions } from './desk-options';

export type { DeskCoreOptions };

/**
 * The data folder holds the library, purchase history, keys and the sealed secret: 0700, and every file in
 * it 0600, including files an older version left readable by others.
 */
function ownerOnlyDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  chmodIfPresent(dataDir, 0o700);
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isFile()) chmodIfPresent(path.join(dataDir, entry.name), 0o600);
  }
}

export const DEFAULT_SERVICE_URL = 'http://127.0.0.1:8402';

export class DeskContext {
  readonly db: DeskDb;
  readonly recovered: OpenedDb['movedAside'];
  /** Copies of the library in backups/: automatic, on request, and restoring one. */
  readonly backups: LibraryBackups;
  /** The whole-file corruption check, in the background (db/integrity.ts). */
  readonly integrity: IntegrityWatch;
  readonly ledger: PurchaseLedger;
  /** Sealed payments kept until validBefore for services that offer payment-identifier (decision 0024). */
  readonly keptPayments: KeptPayments;
  readonly spend: SpendLedger;
  /** The reservation each payment takes before signing, shared by every process on the data folder. */
  readonly reservations: Reservations;
  /** What counts against the caps, payments being signed included, and the facts the payment rules judge. */
  readonly spending: Spending;
  readonly budgets: HandleBudgets;
  /** Purchases an assistant asked for (the MCP server), waiting for the person's approval. */
  readonly purchaseRequests: PurchaseRequests;
  readonly snapshots: SnapshotStore;
  readonly catalog: CatalogCache;
  /** The shelf and menus, live or last-known, and the shelf the Shelf screen pages through. */
  readonly catalogService: CatalogService;
  readonly settings: SettingsStore;
  /** The person's own words about their library: tags and notes on reports, saved searches, dossier drafts. */
  readonly labels: ReportLabelStore;
  readonly savedSearches: SavedSearchStore;
  readonly dossierDrafts: DossierDrafts;
  readonly wallet: DeskWallet;
  readonly quotes: QuoteBook;
  readonly purchaser: Purchaser;
  /** This desk as a member of its team (decision 0043): the gate before every reservation, and the sync. */
  readonly team: TeamDesk;
  readonly teamMembership: TeamMembership;
  /** Lost answers asked for again with the payment already sent (decision 0024). */
  readonly keptResender: KeptResender;
  /** The ledger transitions from a signed payment to stored reports, for purchases, reconciliation and restore. */
  readonly settlement: Settlement;
  /** Restores of purchases from the service, some waiting for a wallet in the window to sign. */
  readonly restores: PurchaseRestores;
  readonly now: () => number;
  readonly demo: boolean;
  /** The library secret: which may go where, and what the service said of it (library-secret.ts). */
  readonly librarySecret: LibrarySecret;
  readonly demoAsset: `0x${string}` | null;
  /** The service now selected and whether it answers. */
  readonly connection: ServiceConnection;
  /** The tokens services asked to be paid in, learned from their quotes (for balances). */
  readonly tokens = new KnownTokens();
  readonly events = new DeskEvents();
  /** Commits by other processes on this desk.db, told to the windows (db/other-writers.ts). */
  readonly otherWriters: OtherWriters;
  /**
   * The service named for this run (the CLI's --service or INTEL_DESK_SERVICE_URL, npm start's demo or
   * --service). It is never saved: a CLI run on the same data dir must not move the app's service, nor this
   * run decide the next one's. Choosing a service in Settings replaces it.
   */
  private serviceForRun: string | null;
  private readonly chainClients: ChainClients;
  private autoLockTimer: NodeJS.Timeout | null = null;
  private readonly tokenDomains = new TokenDomains();

  constructor(readonly options: DeskCoreOptions) {
    // A run's own addresses are refused before anything opens; saved ones are refused where they are used.
    if (options.serviceUrl) requireEncryptedOrLocal('service', options.serviceUrl, 'for this run instead');
    requireSafeChainRpc(options.rpcUrl ? { url: options.rpcUrl, source: 'run' } : null);
    ownerOnlyDataDir(options.dataDir);
    this.now = options.now ?? (() => Date.now());
    this.demo = options.demo ?? false;
    this.demoAsset = options.demoAsset ?? null;
    this.chainClients = new ChainClients(options.chainTimeoutMs ?? 5_000);
    const opened = openDeskDb(path.join(options.dataDir, 'desk.db'), () => new Date(this.now()), {
      nativeBinding: options.nativeBinding,
    });
    this.db = opened.db;
    this.recovered = opened.movedAside;
    if (options.onEvent) this.events.on(options.onEvent);
    this.integrity = new IntegrityWatch(
      this.db.name,
      () => this.events.changed('library.damaged'),
      this.now,
      { nativeBinding: options.nativeBinding, ...options.integrity },
    );
    this.backups = new LibraryBackups(this.db, backupsFolder(options.dataDir), this.events, this.now, {
      ...options.backups,
      nativeBinding: options.nativeBinding,
    });
    this.ledger = new PurchaseLedger(this.db, () => new Date(this.now()), this.events);
    this.spend = new SpendLedger(this.db);
    this.budgets = new HandleBudgets(this.db, this.now, this.events);
    this.purchaseRequests = new PurchaseRequests(this.db, this.now, this.events);
    // A damaged page the background indexing pass meets is reported as a read's is; anything else stops the
    // pass until the next read that needs it.
    this.catalog = new CatalogCache(this.db);
    this.snapshots = new SnapshotStore(
      this.db,
      this.events,
      (error) => {
        if (isCorruption(error)) this.integrity.report(error.message);
      },
      (serviceUrl, handle) => this.catalog.displayNameOf(serviceUrl, handle),
    );
    this.catalogService = new CatalogService({
      serviceUrl: () => this.serviceUrl(),
      client: () => this.client(),
      catalog: this.catalog,
      snapshots: this.snapshots,
      now: this.now,
      afterAnswer: (write) => this.afterAnswer(write),
    });
    this.settings = new SettingsStore(this.db, this.events);
    this.labels = new ReportLabelStore(this.db, () => new Date(this.now()));
    this.savedSearches = new SavedSearchStore(this.db, () => new Date(this.now()));
    this.dossierDrafts = new DossierDrafts(this.db);
    this.wallet = new DeskWallet(
      walletFileIn(options.dataDir),
      options.vault,
      options.walletKdfCost ?? 'default',
      this.events,
      options.autoLockWallet
        ? { idleMs: () => this.settings.get().autoLockMinutes * 60_000, now: this.now }
        : null,
    );
    this.otherWriters = new OtherWriters(this.db, this.events);
    if (options.followOtherWriters) this.otherWriters.start();
    if (options.autoLockWallet) {
      this.autoLockTimer = setInterval(() => this.wallet.lockIfIdle(), options.autoLockCheckMs ?? 30_000);
      this.autoLockTimer.unref();
    }
    // One key (the OS keychain, else local.key beside the data) seals the library secret and kept payments.
    const sealer = new LocalSealer(path.join(options.dataDir, 'local.key'), options.vault);
    this.keptPayments = new KeptPayments(this.db, sealer, this.now);
    this.librarySecret = new LibrarySecret({
      file: path.join(options.dataDir, 'library-secret.sealed'),
      sealer,
      events: this.events,
      serviceUrl: () => this.serviceUrl(),
      savedServiceUrl: () => this.settings.get().serviceUrl || DEFAULT_SERVICE_URL,
      client: () => this.client(),
    });
    this.quotes = new QuoteBook(this.now);
    this.teamMembership = new TeamMembership(this.db, path.join(options.dataDir, 'team-db.sealed'), sealer);
    this.team = new TeamDesk({
      db: this.db,
      membership: this.teamMembership,
      ledger: this.ledger,
      library: this.snapshots,
      events: this.events,
      now: this.now,
      chain: (network) => this.chain(network),
    });
    this.connection = new ServiceConnection(() => this.serviceUrl(), {
      fetch: options.fetch,
      attempts: options.attempts,
      timeoutMs: options.timeoutMs,
      now: this.now,
      onChange: () => this.events.changed('service.changed'),
    });
    this.serviceForRun = options.serviceUrl || null;
    const steps = new PurchaseSteps((purchaseId, step, quoteId) =>
      this.events.step(purchaseId, quoteId, step),
    );
    this.reservations = new Reservations(this.db, this.now);
    this.settlement = new Settlement({
      db: this.db,
      reservations: this.reservations,
      ledger: this.ledger,
      kept: this.keptPayments,
      snapshots: this.snapshots,
      settings: this.settings,
      steps,
      now: this.now,
    });
    this.spending = new Spending({
      ledger: this.ledger,
      spend: this.spend,
      budgets: this.budgets,
      settings: this.settings,
      reservations: this.reservations,
      now: this.now,
    });
    this.keptResender = new KeptResender({
      kept: this.keptPayments,
      clientFor: (serviceUrl) => this.connection.clientFor(serviceUrl),
      settlement: this.settlement,
      reservations: this.reservations,
    });
    this.purchaser = new Purchaser({
      db: this.db,
      ledger: this.ledger,
      wallet: this.wallet,
      quotes: this.quotes,
      client: () => this.client(),
      requote: (held) => requote(this, held),
      chain: (network) => this.chain(network),
      serviceFailedSince: (at) => this.connection.failedSince(at),
      checkTokenDomain: (quote) => {
        requireSafeChainRpc(this.chainRpc(quote.network));
        return this.tokenDomains.assertMatches(quote, this.chain(quote.network));
      },
      clock: (network) => this.clockSamples(network),
      now: this.now,
      steps,
      settlement: this.settlement,
      spending: this.spending,
      reservations: this.reservations,
      ownedIds: (serviceUrl, handle) => this.snapshots.ownedIds(serviceUrl, handle),
      team: this.team,
    });
    this.restores = new PurchaseRestores({
      db: this.db,
      ledger: this.ledger,
      snapshots: this.snapshots,
      deliver: (purchaseId, body, text) => this.settlement.deliver(purchaseId, body, text),
      now: this.now,
      chain: (network) => this.chain(network),
      wallet: this.wallet,
      client: () => this.connection.clientFor(this.serviceUrl()),
    });
  }

  /** Starts a purchase (payments/purchase-start.ts): its reports read with the library secret, or paid for. */
  startPurchase(request: PurchaseRequest): Promise<PurchaseOutcome> {
    return startPurchase(
      {
        quotes: this.quotes,
        purchaser: this.purchaser,
        settlement: this.settlement,
        librarySecret: this.librarySecret,
        secretRead: {
          db: this.db,
          ledger: this.ledger,
          snapshots: this.snapshots,
          client: () => this.client(),
          librarySecret: this.librarySecret,
          now: this.now,
        },
      },
      request,
    );
  }

  serviceUrl(): string {
    return this.serviceForRun ?? (this.settings.get().serviceUrl || DEFAULT_SERVICE_URL);
  }

  /** The service chosen in Settings: saved, and used from now on in place of this run's. */
  chooseService(serviceUrl: string): void {
    this.serviceForRun = null;
    this.settings.update({ serviceUrl });
  }

  client(): ServiceClient {
    return this.connection.client();
  }

  /**
   * The chain RPC the desk asks about this network, and where it was chosen (chain-rpc.ts); for `null` (no
   * network known yet, as in the CLI's wallet status) only one chosen for this run or in Settings.
   */
  chainRpc(network: string | null): ChainRpc | null {
    return chainRpcFor(network, {
      run: this.options.rpcUrl ?? null,
      settings: this.settings.get().chainRpcUrl,
    });
  }

  /** The RPC URL the desk would ask about this network. */
  rpcUrlFor(network: string): string | null {
    return this.chainRpc(network)?.url ?? null;
  }

  /**
   * A read-only chain client for the network; null for a network that is not an EVM chain, and for an RPC in
   * plain http off this computer (saved before decision 0040), whose word on a payment is not taken.
   */
  chain(network: string): PublicClient | null {
    const rpc = this.chainRpc(network);
    return rpc && encryptedOrLocal(rpc.url) ? this.chainClients.client(network, rpc.url) : null;
  }

  /** The service's and the chain's clocks against the desk's, for dating a payment on network (rule 7). */
  async clockSamples(network: string): Promise<ClockSample[]> {
    const service = this.client().serviceClock();
    const chain = this.chain(network);
    const onChain = chain
      ? await readChainClock(chain, Number(network.replace(/^eip155:/, '')), this.now)
      : null;
    return [service, onChain].filter((sample) => sample !== null);
  }

  private readonly deferredWrites = new Set<() => void>();

  /**
   * A write that need not delay the answer it belongs to (saving a 22 MB shelf): it runs just after, or when
   * the desk closes at the latest, so a CLI command that answers and exits still saves it.
   */
  afterAnswer(write: () => void): void {
    const run = () => {
      if (!this.deferredWrites.delete(run)) return;
      try {
        write();
      } catch {
        // What is not saved now is saved by the next fetch; the answer already went out.
      }
    };
    this.deferredWrites.add(run);
    setImmediate(run);
  }

  close(): void {
    if (this.autoLockTimer) clearInterval(this.autoLockTimer);
    this.otherWriters.stop();
    this.reservations.close();
    this.integrity.stop();
    for (const run of [...this.deferredWrites]) run();
    this.db.close();
  }
}
