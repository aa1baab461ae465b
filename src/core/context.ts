/** Everything one running desk holds: storage, the service client, wallet, secrets, and the purchaser. */
import path from 'node:path';
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import type { PublicClient } from 'viem';
import { openDeskDb, type DeskDb, type OpenedDb } from './db/open';
import { IntegrityWatch, isCorruption, type IntegrityWatchOptions } from './db/integrity';
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
import type { KdfCost } from './wallet/passphrase-seal';
import { LocalSealer, type SecretVault } from './wallet/sealing';
import { LibrarySecret } from './library-secret';
import type { ServiceClient } from './client/service-client';
import { ServiceConnection } from './client/connection';
import { KnownTokens } from './wallet/balances';
import { QuoteBook } from './payments/quote-book';
import { Purchaser, type PurchaseRequest } from './payments/purchaser';
import { PurchaseSteps } from './payments/purchase-steps';
import { Settlement } from './payments/settle';
import { Spending } from './payments/spending';
import { startPurchase } from './payments/purchase-start';
import { PurchaseRestores } from './restore/restores';
import { requote } from './quoting';
import { readChainClock, type ClockSample } from './payments/chain-clock';
import { ChainClients, chainRpcFor, type ChainRpc } from './payments/chain-rpc';
import { TokenDomains } from './payments/token-domain';
import { DeskEvents } from './events';
import { LibraryBackups, type BackupScheduleOptions } from './backup/scheduler';
import { backupsFolder } from './backup/backups-folder';
import type { DeskEvent } from '../shared/events';
import type { PurchaseOutcome } from '../shared/rpc';

export interface DeskCoreOptions {
  dataDir: string;
  serviceUrl?: string;
  demo?: boolean;
  /** In demo mode, the test USDC the local service deployed: the only token signed for on the demo chain. */
  demoAsset?: `0x${string}`;
  /** This run's chain RPC (the CLI's --rpc, INTEL_DESK_RPC_URL, the demo's chain): ahead of Settings and defaults. */
  rpcUrl?: string;
  vault?: SecretVault;
  /** Demo mode only: the demo service's library secret, which core can use when asked without showing it. */
  demoLibrarySecret?: string;
  fetch?: typeof fetch;
  /**
   * Every event core emits (src/shared/events.ts): what the hosts forward to the window, and how tests and the
   * chaos run follow a purchase's steps. Listening from here hears the steps of the start's reconciliation too.
   */
  onEvent?: (event: DeskEvent) => void;
  /** Milliseconds since the epoch; injectable so tests can move past an authorization's expiry. */
  now?: () => number;
  /** Free-route attempts (default 3); tests of offline behaviour use 1. */
  attempts?: number;
  /** Deadline of one service request (default 20 s). */
  timeoutMs?: number;
  /** Deadline of one chain RPC call during reconciliation (default 5 s), so a dead chain never blocks start. */
  chainTimeoutMs?: number;
  /** Wallet key-derivation cost; only test suites pass 'fast-insecure-for-tests'. */
  walletKdfCost?: KdfCost;
  /** A better-sqlite3 addon built for this runtime's ABI (Electron's), instead of the one built for Node. */
  nativeBinding?: string;
  /** When the library is copied into backups/ (after stored reports, daily); tests shorten the delays. */
  backups?: BackupScheduleOptions;
  /**
   * Lock an unlocked keystore after the idle time set in Settings: the app's hosts ask for it outside the demo
   * (whose wallet they unlock themselves); the CLI does not, as a command or the MCP server unlocks from the
   * environment, where nobody could type the passphrase again.
   */
  autoLockWallet?: boolean;
  /** How often the idle keystore is looked at (default 30 s); reading the wallet looks too. */
  autoLockCheckMs?: number;
  /** The WalletConnect relay, already validated (src/shared/walletconnect-relay.ts); default WalletConnect's. */
  walletConnectRelayUrl?: string;
  /** When the background integrity check runs (tests start it at once). */
  integrity?: Omit<IntegrityWatchOptions, 'nativeBinding'>;
}

/**
 * The data folder holds the library, purchase history, keys and the sealed secret: 0700, and every file in
 * it 0600, including files an older version left readable by others.
 */
function ownerOnlyDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  chmodSync(dataDir, 0o700);
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isFile()) chmodSync(path.join(dataDir, entry.name), 0o600);
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
    this.settlement = new Settlement({
      db: this.db,
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
      now: this.now,
    });
    this.purchaser = new Purchaser({
      db: this.db,
      ledger: this.ledger,
      spend: this.spend,
      budgets: this.budgets,
      snapshots: this.snapshots,
      settings: this.settings,
      wallet: this.wallet,
      quotes: this.quotes,
      client: () => this.client(),
      clientFor: (serviceUrl) => this.connection.clientFor(serviceUrl),
      kept: this.keptPayments,
      requote: (held) => requote(this, held),
      chain: (network) => this.chain(network),
      serviceFailedSince: (at) => this.connection.failedSince(at),
      checkTokenDomain: (quote) => this.tokenDomains.assertMatches(quote, this.chain(quote.network)),
      clock: (network) => this.clockSamples(network),
      now: this.now,
      steps,
      settlement: this.settlement,
      spending: this.spending,
    });
    this.restores = new PurchaseRestores({
      db: this.db,
      ledger: this.ledger,
      snapshots: this.snapshots,
      deliver: (purchaseId, body, text) => this.settlement.deliver(purchaseId, body, text),
      now: this.now,
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

  /** A read-only chain client for the network; null only for a network that is not an EVM chain. */
  chain(network: string): PublicClient | null {
    const rpc = this.chainRpc(network);
    return rpc ? this.chainClients.client(network, rpc.url) : null;
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
    this.integrity.stop();
    for (const run of [...this.deferredWrites]) run();
    this.db.close();
  }
}
