/**
 * Intel Desk's core: plain Node, run inside Electron's main process, the web host, or the CLI. Hosts talk
 * to it only through `handlers`, the RPC contract of src/shared/rpc.ts.
 */
import packageJson from '../../package.json';
import type { RpcHandlers } from '../shared/rpc';
import { DeskContext, type DeskCoreOptions } from './context';
import { purchaseView } from './ledger/purchases';
import { reconcilePurchases } from './payments/reconcile';
import { getQuote } from './quoting';
import { menuGet, shelfList } from './handlers/catalog';
import { libraryList, librarySearch, reportExport, reportGet } from './handlers/library';
import { walletStatus } from './handlers/wallet';
import { setLibrarySecret, settingsGet, useDemoLibrarySecret } from './handlers/settings';
import { dossierDiscardDraft, dossierOpen, dossierSave, dossierSaveDraft } from './handlers/dossier';
import { DeskError } from './errors';
import type { SecretVault } from './wallet/sealing';
import type { PurchaseStep } from './payments/purchaser';

export type { DeskCoreOptions, SecretVault, PurchaseStep };
export { DeskError } from './errors';

/** The one version number: package.json's, so a release bump cannot leave the About box behind. */
export const APP_VERSION: string = packageJson.version;

export interface DeskCore {
  handlers: RpcHandlers;
  wallet: {
    importPrivateKey(key: `0x${string}`, passphrase: string): Promise<void>;
    unlock(passphrase: string): Promise<void>;
  };
  /** For the CLI and tests: the same context the handlers use. */
  context: DeskContext;
  close(): Promise<void>;
}

function purchasesView(ctx: DeskContext) {
  const settings = ctx.settings.get();
  const day = new Date(ctx.now());
  day.setHours(0, 0, 0, 0);
  return {
    purchases: ctx.ledger.list().map(purchaseView),
    spentTodayUsd: Number(ctx.ledger.spentSince(day)) / 1e6,
    dailyCapUsd: settings.dailyCapUsd,
    perPurchaseCapUsd: settings.perPurchaseCapUsd,
  };
}

/** Settles what can be settled of unfinished purchases; the rest records what it waits for. */
function reconcile(ctx: DeskContext): Promise<void> {
  return reconcilePurchases({
    ledger: ctx.ledger,
    purchaser: ctx.purchaser,
    chain: (network) => ctx.chain(network),
    rpcUrlFor: (network) => ctx.rpcUrlFor(network),
    now: ctx.now,
  });
}

function buildHandlers(ctx: DeskContext): RpcHandlers {
  return {
    'app.info': async () => ({
      version: APP_VERSION,
      serviceUrl: ctx.serviceUrl(),
      demo: ctx.demo,
      online: ctx.online,
      ...(ctx.recovered ? { databaseRecovered: ctx.recovered } : {}),
    }),
    'shelf.list': ({ refresh }) => shelfList(ctx, refresh ?? false),
    'menu.get': ({ handle }) => menuGet(ctx, handle),
    'quote.get': ({ handle, selection, includeOwned }) =>
      getQuote(ctx, handle, selection, includeOwned ?? false),
    'purchase.start': (input) => ctx.purchaser.start(input),
    'purchase.submitSignature': ({ purchaseId, signature }) =>
      ctx.purchaser.submitSignature(purchaseId, signature as `0x${string}`),
    'purchases.list': async () => purchasesView(ctx),
    'purchases.reconcile': async () => {
      await reconcile(ctx);
      return purchasesView(ctx);
    },
    'library.list': async (input) => libraryList(ctx, input),
    'library.handles': async () => ({ handles: ctx.snapshots.handles() }),
    'library.search': async (input) => librarySearch(ctx, input),
    'report.get': async ({ id, serviceUrl }) => reportGet(ctx, id, serviceUrl ?? null),
    'report.export': async ({ id, serviceUrl, format }) => reportExport(ctx, id, serviceUrl ?? null, format),
    'wallet.status': () => walletStatus(ctx),
    'wallet.import': async ({ privateKey, keystoreJson, keystorePassword, passphrase }) => {
      if (keystoreJson) await ctx.wallet.importKeystore(keystoreJson, keystorePassword ?? '', passphrase);
      else if (privateKey) await ctx.wallet.importPrivateKey(privateKey, passphrase);
      else
        throw new DeskError('nothing_to_import', 'Paste a private key or choose a keystore file.', 'usage');
      return walletStatus(ctx);
    },
    'wallet.unlock': async ({ passphrase }) => {
      await ctx.wallet.unlock(passphrase);
      return walletStatus(ctx);
    },
    'wallet.lock': async () => {
      ctx.wallet.lock();
      return walletStatus(ctx);
    },
    'wallet.useExternal': async ({ address }) => {
      ctx.wallet.useExternal(address);
      return walletStatus(ctx);
    },
    'settings.get': async () => settingsGet(ctx),
    'settings.update': async (patch) => {
      ctx.settings.update(patch);
      return settingsGet(ctx);
    },
    'settings.setLibrarySecret': ({ secret }) => setLibrarySecret(ctx, secret),
    'settings.useDemoLibrarySecret': () => useDemoLibrarySecret(ctx),
    'settings.clearLibrarySecret': async () => {
      ctx.setLibrarySecret(null);
      return settingsGet(ctx);
    },
    'dossier.open': ({ handle }) => dossierOpen(ctx, handle),
    'dossier.saveDraft': ({ handle, draft }) => dossierSaveDraft(ctx, handle, draft),
    'dossier.discardDraft': async ({ handle }) => dossierDiscardDraft(ctx, handle),
    'dossier.save': ({ handle, bundle, baseGatheredAt }) => dossierSave(ctx, handle, bundle, baseGatheredAt),
  };
}

export async function createDeskCore(options: DeskCoreOptions): Promise<DeskCore> {
  const ctx = new DeskContext(options);
  const handlers = buildHandlers(ctx);
  // Purchases a crash or a lost answer left open are explained before anything else happens.
  await reconcile(ctx);
  return {
    handlers,
    context: ctx,
    wallet: {
      importPrivateKey: (key, passphrase) => ctx.wallet.importPrivateKey(key, passphrase),
      unlock: (passphrase) => ctx.wallet.unlock(passphrase),
    },
    close: async () => ctx.close(),
  };
}
