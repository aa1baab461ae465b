/**
 * Intel Desk's core: plain Node, run inside Electron's main process, the web host, or the CLI. Its one way
 * in is `handlers`, the RPC contract of src/shared/rpc/, each checking its input at the door (handlers/door.ts).
 * This is the composition root: desk/ puts each domain's parts together, and each module of handlers/ (one
 * per domain of the contract, named alike) gets only the parts it uses.
 */
import { teamHandlers } from './handlers/team';
import type { RpcHandlers } from '../shared/rpc';
import type { DeskEventSource } from '../shared/events';
import { isCorruption, libraryDamaged } from './db/integrity';
import { checkedHandlers } from './handlers/door';
import { DeskContext, type DeskCoreOptions } from './desk/context';
import { appHandlers } from './handlers/app';
import { catalogHandlers } from './handlers/catalog';
import { purchaseHandlers } from './handlers/purchases';
import { purchaseRequestHandlers } from './handlers/purchase-requests';
import { libraryHandlers } from './handlers/library';
import { reportHandlers } from './handlers/report';
import { walletHandlers } from './handlers/wallet';
import { settingsHandlers } from './handlers/settings';
import { dossierHandlers } from './handlers/dossier';
import { backupHandlers } from './handlers/backups';
import type { SecretVault } from './wallet/sealing';
import type { PurchaseStep } from './payments/purchase-steps';

export type { DeskCoreOptions, SecretVault, PurchaseStep };
export { DeskError } from './base/errors';
export { APP_VERSION } from './handlers/app';

/** Core's one way in: the RPC contract. Hosts, the CLI and tests hold nothing else of core. */
export interface DeskCore {
  /** Each checks its input against the contract before it runs (door.ts), whoever calls it. */
  handlers: RpcHandlers;
  /** What changed and each purchase step, as they happen: the hosts forward these to the window. */
  events: DeskEventSource;
  close(): Promise<void>;
}

export async function createDeskCore(options: DeskCoreOptions): Promise<DeskCore> {
  const ctx = new DeskContext(options);
  const { service, payments, library, reports, demo } = ctx;
  const baseUrl = () => service.client().baseUrl;
  const { snapshots } = library;
  const handlers: RpcHandlers = {
    ...appHandlers({ integrity: ctx.integrity, service, demo, recovered: ctx.recovered, options }),
    ...catalogHandlers(ctx.catalog.service),
    ...purchaseHandlers({
      payments,
      settings: ctx.settings,
      catalogService: ctx.catalog.service,
      receipts: { ledger: payments.ledger, snapshots, chain: (network) => ctx.chains.chain(network) },
      baseUrl,
    }),
    ...purchaseRequestHandlers(payments.approvals),
    ...libraryHandlers({ reports, snapshots, savedSearches: library.savedSearches }),
    ...reportHandlers(reports, library.labels),
    ...walletHandlers({
      wallet: ctx.wallets.wallet,
      tokens: payments.tokens,
      chains: ctx.chains,
      baseUrl,
      demo,
      options,
    }),
    ...settingsHandlers({
      settings: ctx.settings,
      service,
      librarySecret: library.secret,
      proxyCredentials: ctx.proxyCredentials,
      consent: payments.consent,
      demo,
      options,
    }),
    ...dossierHandlers(ctx.dossiers),
    ...backupHandlers({ backups: ctx.backups, snapshots, restores: ctx.restores }),
    ...teamHandlers(ctx.team.desk, ctx.team.views),
  };
  // Purchases a crash or a lost answer left open are explained before anything else happens.
  await payments.reconcile();
  // A window's desk hears the team publish; after reconciliation, so the first sync tells the team how
  // purchases a crash left open ended.
  if (options.followOtherWriters) ctx.team.desk.follow();
  ctx.backups.start();
  ctx.integrity.start();
  startIndexing(ctx);
  return {
    handlers: checkedHandlers(reportingDamage(ctx, handlers)),
    events: ctx.events,
    close: async () => {
      // A backup a purchase is owed is taken, and one under way finished, before the database closes.
      await ctx.backups.close();
      await ctx.team.desk.close();
      ctx.close();
    },
  };
}

/**
 * A backlog left by an upgrade or a crash before indexing is worked off in the background from the start. A
 * damaged page met here is marked like a read's, and the first read that meets it says so in words.
 */
function startIndexing(ctx: DeskContext): void {
  try {
    ctx.library.snapshots.indexing();
  } catch (error) {
    if (!isCorruption(error)) throw error;
    ctx.integrity.report(error.message);
  }
}

/** A read that meets a damaged page says so in words, and marks the file for the next start's full check. */
function reportingDamage(ctx: DeskContext, handlers: RpcHandlers): RpcHandlers {
  const guarded: Record<string, (input: never) => Promise<unknown>> = {};
  for (const [method, handler] of Object.entries(handlers) as [
    string,
    (input: never) => Promise<unknown>,
  ][]) {
    guarded[method] = async (input) => {
      try {
        return await handler(input);
      } catch (error) {
        if (!isCorruption(error)) throw error;
        ctx.integrity.report(error.message);
        throw libraryDamaged(ctx.db.name, error);
      }
    };
  }
  return guarded as RpcHandlers;
}
