/**
 * Everything one running desk holds, put together from each domain's parts: storage, the service and the
 * chains, the wallet, the catalog, the library, payments, dossiers and restores. Only index.ts reads it, to
 * hand each handler module the parts it uses.
 */
import path from 'node:path';
import { ownerOnlyDataDir } from '../base/owner-only';
import { DeskEvents } from '../base/events';
import { requireEncryptedOrLocal } from '../base/transport';
import { openDeskDb, type DeskDb, type OpenedDb } from '../db/open';
import { IntegrityWatch, isCorruption } from '../db/integrity';
import { OtherWriters } from '../db/other-writers';
import { backupsFolder } from '../db/backups-folder';
import { LibraryBackups } from '../backup/scheduler';
import { networkChoice, SettingsStore } from '../settings/settings';
import { ServiceConnection } from '../client/connection';
import { DeskNetwork } from '../net/network';
import { ProxyCredentials } from '../net/proxy-credentials';
import { requireSafeChainRpc } from '../payments/chain-rpc';
import { LocalSealer } from '../wallet/sealing';
import { CatalogCache } from '../catalog/catalog-cache';
import { CatalogService } from '../catalog/catalog-service';
import { menuGaps } from '../catalog/menu-gaps';
import { LibraryReports } from '../library/reports';
import { DossierDrafts } from '../dossier/drafts';
import { Dossiers } from '../dossier/dossiers';
import { PurchaseRestores } from '../restore/restores';
import type { DeskCoreOptions } from './desk-options';
import { DeskService } from './service';
import { DeskChains } from './chains';
import { Library } from './library';
import { Payments } from './payments';
import { DeskWallets } from './wallets';
import { AfterAnswer } from './after-answer';
import { DeskTeam } from './team';
import { PurchaseLedger } from '../ledger/purchases';

export type { DeskCoreOptions };

export class DeskContext {
  readonly db: DeskDb;
  readonly recovered: OpenedDb['movedAside'];
  readonly now: () => number;
  readonly demo: boolean;
  readonly events = new DeskEvents();
  /** The whole-file corruption check, in the background (db/integrity.ts). */
  readonly integrity: IntegrityWatch;
  /** Copies of the library in backups/: automatic, on request, and restoring one. */
  readonly backups: LibraryBackups;
  /** Commits by other processes on this desk.db, told to the windows (db/other-writers.ts). */
  readonly otherWriters: OtherWriters;
  readonly settings: SettingsStore;
  /** The proxy and certificate authorities every request goes out with (net/network.ts). */
  readonly network: DeskNetwork;
  /** A proxy's user name and password, sealed out of desk.db (net/proxy-credentials.ts). */
  readonly proxyCredentials: ProxyCredentials;
  readonly service: DeskService;
  readonly chains: DeskChains;
  readonly wallets: DeskWallets;
  /** The shelf and menus: the copies kept (cache) and the live-or-last-known service over them. */
  readonly catalog: { cache: CatalogCache; service: CatalogService };
  readonly library: Library;
  readonly payments: Payments;
  /** This desk as a member of its team (decision 0050); a desk in no team passes its gate untouched. */
  readonly team: DeskTeam;
  /** The library read for the contract: pages, search, one report, a diff, an export (library/reports.ts). */
  readonly reports: LibraryReports;
  readonly dossiers: Dossiers;
  /** Restores of purchases from the service, some waiting for a wallet in the window to sign. */
  readonly restores: PurchaseRestores;
  /** Writes that need not delay an answer, run just after it or at close (desk/after-answer.ts). */
  readonly afterAnswer = new AfterAnswer();

  constructor(readonly options: DeskCoreOptions) {
    // A run's own addresses are refused before anything opens; saved ones are refused where they are used.
    if (options.serviceUrl) requireEncryptedOrLocal('service', options.serviceUrl, 'for this run instead');
    requireSafeChainRpc(options.rpcUrl ? { url: options.rpcUrl, source: 'run' } : null);
    ownerOnlyDataDir(options.dataDir);
    const now = (this.now = options.now ?? (() => Date.now()));
    this.demo = options.demo ?? false;
    const { nativeBinding } = options;
    const opened = openDeskDb(path.join(options.dataDir, 'desk.db'), () => new Date(now()), {
      nativeBinding,
    });
    const db = (this.db = opened.db);
    this.recovered = opened.movedAside;
    const events = this.events;
    if (options.onEvent) events.on(options.onEvent);
    const integrity = new IntegrityWatch(db.name, () => events.changed('library.damaged'), now, {
      nativeBinding,
      ...options.integrity,
    });
    this.integrity = integrity;
    this.backups = new LibraryBackups(db, backupsFolder(options.dataDir), events, now, {
      ...options.backups,
      nativeBinding,
    });
    const settings = (this.settings = new SettingsStore(db, events));
    const environment = options.environment ?? process.env;
    // One key (the OS keychain, else local.key beside the data) seals the library secret and kept payments.
    const sealer = new LocalSealer(path.join(options.dataDir, 'local.key'), options.vault);
    // Sealed with local.key alone, never the keychain: the CLI and the MCP server, which have no keychain,
    // must reach the same proxy (decision 0046).
    const proxyCredentials = (this.proxyCredentials = new ProxyCredentials(
      path.join(options.dataDir, 'proxy-credentials.sealed'),
      new LocalSealer(path.join(options.dataDir, 'local.key'), undefined),
    ));
    const unsealedProxy = proxyCredentials.moveOutOf(settings.get().proxy);
    if (unsealedProxy) settings.update({ proxy: unsealedProxy });
    const network = (this.network = new DeskNetwork(() => {
      const choice = networkChoice(settings.get());
      return { ...choice, proxy: proxyCredentials.joined(choice.proxy) };
    }, environment));
    const service = (this.service = new DeskService(
      settings,
      options.serviceUrl,
      (serviceUrl) =>
        new ServiceConnection(serviceUrl, {
          fetch: options.fetch ?? network.fetch,
          attempts: options.attempts,
          timeoutMs: options.timeoutMs,
          now,
          onChange: () => events.changed('service.changed'),
        }),
    ));
    const chains = (this.chains = new DeskChains(
      settings,
      options.rpcUrl ?? null,
      options.chainTimeoutMs ?? 5_000,
      now,
      network.fetchForViem,
    ));
    const cache = new CatalogCache(db);
    // A damaged page the background indexing pass meets is reported as a read's is; anything else stops the
    // pass until the next read that needs it.
    const onIndexError = (error: unknown) => {
      if (isCorruption(error)) integrity.report(error.message);
    };
    const library = (this.library = new Library({
      db,
      events,
      now,
      sealer,
      service,
      onIndexError,
      cache,
      options,
    }));
    const { snapshots, secret: librarySecret } = library;
    const catalogService = new CatalogService({
      serviceUrl: () => service.serviceUrl(),
      client: () => service.client(),
      catalog: cache,
      snapshots,
      now,
      afterAnswer: (write) => this.afterAnswer.run(write),
    });
    this.catalog = { cache, service: catalogService };
    this.wallets = new DeskWallets(options, settings, events);
    this.otherWriters = new OtherWriters(db, events);
    if (options.followOtherWriters) this.otherWriters.start();
    const wallet = this.wallets.wallet;
    const demoAsset = options.demoAsset ?? null;
    const parts = { db, events, now, settings, wallet, sealer, snapshots, librarySecret, catalogService };
    const purchaseLedger = new PurchaseLedger(db, () => new Date(now()), events);
    const team = (this.team = new DeskTeam({
      ...parts,
      ledger: purchaseLedger,
      dataDir: options.dataDir,
      chains,
      // The spelling the desk's own purchases are kept under (the client's base URL).
      serviceUrl: () => service.client().baseUrl,
      nativeBinding,
    }));
    const payments = (this.payments = new Payments({
      ...parts,
      ledger: purchaseLedger,
      team: team.desk,
      service,
      chains,
      demo: this.demo,
      demoAsset,
    }));
    const { ledger } = payments;
    this.reports = new LibraryReports({
      snapshots,
      ledger,
      labels: library.labels,
      serviceUrl: () => service.serviceUrl(),
      baseUrl: () => service.client().baseUrl,
      displayNameOf: (serviceUrl, handle) => cache.displayNameOf(serviceUrl, handle),
      handleOfReport: (serviceUrl, id) => cache.handleOfReport(serviceUrl, id),
      boughtBy: (serviceUrl, id) => team.membership.boughtBy(serviceUrl, id),
      menuGaps: (serviceUrl, handle) => menuGaps({ catalog: cache, snapshots }, serviceUrl, handle),
    });
    this.dossiers = new Dossiers({
      librarySecret,
      drafts: new DossierDrafts(db),
      serviceUrl: () => service.serviceUrl(),
      now,
    });
    this.restores = new PurchaseRestores({
      db,
      ledger,
      snapshots,
      deliver: (purchaseId, body, text) => payments.settlement.deliver(purchaseId, body, text),
      now,
      chain: (network) => chains.chain(network),
      wallet,
      client: () => service.connection.clientFor(service.serviceUrl()),
    });
  }

  close(): void {
    this.wallets.close();
    this.otherWriters.stop();
    this.payments.reservations.close();
    this.integrity.stop();
    this.afterAnswer.flush();
    void this.network.close();
    this.db.close();
  }
}
