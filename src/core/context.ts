/** Everything one running desk holds: storage, the service client, wallet, secrets, and the purchaser. */
import path from 'node:path';
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import type { PublicClient } from 'viem';
import { openDeskDb, type DeskDb, type OpenedDb } from './db/open';
import { IntegrityWatch, type IntegrityWatchOptions } from './db/integrity';
import { PurchaseLedger } from './ledger/purchases';
import { KeptPayments } from './ledger/kept-payments';
import { SpendLedger } from './ledger/spend';
import { HandleBudgets } from './ledger/budgets';
import { SnapshotStore } from './cache/snapshots';
import { CatalogCache } from './cache/catalog';
import { SettingsStore } from './settings';
import { DeskWallet } from './wallet/wallet';
import type { KdfCost } from './wallet/passphrase-seal';
import { LocalSealer, type SecretVault } from './wallet/sealing';
import { LibrarySecretStore, serviceOrigin } from './library-secret';
import type { ServiceClient } from './client/service-client';
import { ServiceConnection } from './client/connection';
import { KnownTokens } from './wallet/balances';
import { QuoteBook } from './payments/quote-book';
import { Purchaser, type PurchaseStep } from './payments/purchaser';
import { requote } from './quoting';
import { readChainClock, type ClockSample } from './payments/chain-clock';
import { ChainClients, chainRpcFor, type ChainRpc } from './payments/chain-rpc';
import { TokenDomains } from './payments/token-domain';
import { DeskEvents } from './events';
import { DeskError } from './errors';
import { LibraryBackups, type BackupScheduleOptions } from './backup/scheduler';
import { backupsFolder } from './backup/backups-folder';
import type { DeskEvent } from '../shared/events';

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
  onPurchaseStep?: (purchaseId: string, step: PurchaseStep) => void;
  /** Every event core emits (src/shared/events.ts): what the hosts forward to the window. */
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
  readonly budgets: HandleBudgets;
  readonly snapshots: SnapshotStore;
  readonly catalog: CatalogCache;
  readonly settings: SettingsStore;
  readonly wallet: DeskWallet;
  readonly quotes: QuoteBook;
  readonly purchaser: Purchaser;
  readonly now: () => number;
  readonly demo: boolean;
  readonly librarySecrets: LibrarySecretStore;
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
    this.snapshots = new SnapshotStore(this.db, this.events);
    this.catalog = new CatalogCache(this.db);
    this.settings = new SettingsStore(this.db, this.events);
    this.wallet = new DeskWallet(
      path.join(options.dataDir, 'wallet.json'),
      options.vault,
      options.walletKdfCost ?? 'default',
      this.events,
    );
    // One key (the OS keychain, else local.key beside the data) seals the library secret and kept payments.
    const sealer = new LocalSealer(path.join(options.dataDir, 'local.key'), options.vault);
    this.keptPayments = new KeptPayments(this.db, sealer, this.now);
    this.librarySecrets = new LibrarySecretStore(
      path.join(options.dataDir, 'library-secret.sealed'),
      sealer,
      this.events,
    );
    this.quotes = new QuoteBook(this.now);
    this.connection = new ServiceConnection(() => this.serviceUrl(), {
      fetch: options.fetch,
      attempts: options.attempts,
      timeoutMs: options.timeoutMs,
      now: this.now,
      onChange: () => this.events.changed('service.changed'),
    });
    this.serviceForRun = options.serviceUrl || null;
    const onStep = (purchaseId: string, step: PurchaseStep, quoteId: string | null) => {
      options.onPurchaseStep?.(purchaseId, step);
      this.events.step(purchaseId, quoteId, step);
    };
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
      librarySecret: () => this.librarySecret(),
      librarySecretRefused: (secret) => this.librarySecrets.mark(secret, 'refused'),
      serviceFailedSince: (at) => this.connection.failedSince(at),
      checkTokenDomain: (quote) => this.tokenDomains.assertMatches(quote, this.chain(quote.network)),
      clock: (network) => this.clockSamples(network),
      now: this.now,
      onStep,
    });
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

  /** The secret for the service now selected, when one was entered for it and it has not refused it. */
  librarySecret(): string | null {
    return this.librarySecrets.for(serviceOrigin(this.serviceUrl()));
  }

  /**
   * The secret together with the client for the origin it is bound to, taken at once: a change of service
   * while a request is under way cannot send the secret elsewhere.
   */
  libraryAccess(): { secret: string; client: ServiceClient } | null {
    const client = this.client();
    const secret = this.librarySecrets.for(serviceOrigin(client.baseUrl));
    return secret === null ? null : { secret, client };
  }

  /** Stores the secret for the service now selected (https or loopback only), or forgets it. */
  setLibrarySecret(secret: string | null): void {
    if (secret === null) this.librarySecrets.clear();
    else this.librarySecrets.store(secret, serviceOrigin(this.serviceUrl()));
  }

  /**
   * The origin a secret from the environment may go to: the one named for it (`boundTo`), else the saved
   * service. A run whose service is another one is refused before anything is sent: a `--service` typed for
   * one command must not carry a secret kept in a shell profile to that address.
   */
  environmentSecretOrigin(boundTo?: string): string {
    const bound = serviceOrigin(boundTo ?? (this.settings.get().serviceUrl || DEFAULT_SERVICE_URL));
    const service = serviceOrigin(this.serviceUrl());
    if (service !== bound) {
      throw new DeskError(
        'library_secret_other_origin',
        `The library secret given for this run is bound to ${bound}, and this run's service is ${service}: it was not sent.`,
        'usage',
        { origin: bound, service, named: boundTo !== undefined },
      );
    }
    return bound;
  }

  /** A secret for this run only (the CLI's environment): bound as environmentSecretOrigin says, never stored. */
  useLibrarySecretForSession(secret: string, boundTo?: string): void {
    this.librarySecrets.useForSession(secret, this.environmentSecretOrigin(boundTo));
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
    this.integrity.stop();
    for (const run of [...this.deferredWrites]) run();
    this.db.close();
  }
}
