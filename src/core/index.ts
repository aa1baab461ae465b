/**
 * Intel Desk's core: plain Node, run inside Electron's main process, the web host, or the CLI. Its one way
 * in is `handlers`, the RPC contract of src/shared/rpc/, each checking its input at the door (door.ts);
 * each domain's methods live in src/core/handlers/ and are only put together here.
 */
import { teamHandlers } from './handlers/team';
import { TeamViews } from './team/team-view';
import type { RpcHandlers } from '../shared/rpc';
import type { DeskEventSource } from '../shared/events';
import { isCorruption, libraryDamaged } from './db/integrity';
import { checkedHandlers } from './door';
import { DeskContext, type DeskCoreOptions } from './context';
import { appHandlers } from './handlers/app';
import { catalogHandlers } from './handlers/catalog';
import { quoteHandlers } from './handlers/quote';
import { purchaseHandlers, reconcile } from './handlers/purchases';
import { spendHandlers } from './handlers/spend';
import { libraryHandlers } from './handlers/library';
import { libraryLabelHandlers } from './handlers/library-labels';
import { walletHandlers } from './handlers/wallet';
import { settingsHandlers } from './handlers/settings';
import { dossierHandlers } from './handlers/dossier';
import { receiptHandlers } from './handlers/receipts';
import { backupHandlers } from './handlers/backups';
import { purchaseRequestHandlers } from './handlers/purchase-requests';
import type { SecretVault } from './wallet/sealing';
import type { PurchaseStep } from './payments/purchase-steps';

export type { DeskCoreOptions, SecretVault, PurchaseStep };
export { DeskError } from './errors';
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
  const handlers: RpcHandlers = {
    ...appHandlers(ctx),
    ...catalogHandlers(ctx),
    ...quoteHandlers(ctx),
    ...purchaseHandlers(ctx),
    ...spendHandlers(ctx),
    ...libraryHandlers(ctx),
    ...libraryLabelHandlers(ctx),
    ...walletHandlers(ctx),
    ...settingsHandlers(ctx),
    ...dossierHandlers(ctx),
    ...receiptHandlers(ctx),
    ...backupHandlers(ctx),
    ...purchaseRequestHandlers(ctx),
    ...teamHandlers(ctx.team, new TeamViews(ctx.db, ctx.teamMembership, ctx.team, ctx.now)),
  };
  // Purchases a crash or a lost answer left open are explained before anything else happens.
  await reconcile(ctx);
  // A window's desk hears the team publish; after reconciliation, so the first sync tells the team how
  // purchases a crash left open ended.
  if (options.followOtherWriters) ctx.team.follow();
  ctx.backups.start();
  ctx.integrity.start();
  startIndexing(ctx);
  return {
    handlers: checkedHandlers(reportingDamage(ctx, handlers)),
    events: ctx.events,
    close: async () => {
      // A backup a purchase is owed is taken, and one under way finished, before the database closes.
      await ctx.backups.close();
      await ctx.team.close();
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
    ctx.snapshots.indexing();
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
