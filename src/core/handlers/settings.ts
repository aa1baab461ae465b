/** Settings, including the write-only library secret: the UI learns only where it is set and how it fared. */
import type { RpcHandlers, SettingsPatch, SettingsView } from '../../shared/rpc';
import type { SettingsStore } from '../settings/settings';
import type { LibrarySecret } from '../library/library-secret';
import type { DeskService } from '../desk/service';
import type { DeskCoreOptions } from '../desk/desk-options';
import { networkView, settingsView } from '../settings/settings';
import { readCaFile } from '../net/certificates';
import type { StoredProxy } from '../net/proxy-route';
import type { ProxyCredentials } from '../net/proxy-credentials';
import { DeskError } from '../base/errors';
import { consentToCaps, type ConsentDeps } from '../payments/consent';
import { DEFAULT_WALLETCONNECT_RELAY_URL } from '../../shared/walletconnect-relay';
import { requireEncryptedOrLocal } from '../base/transport';

export interface SettingsHandlersDeps {
  readonly settings: SettingsStore;
  readonly service: Pick<DeskService, 'serviceUrl' | 'chooseService'>;
  readonly librarySecret: LibrarySecret;
  readonly proxyCredentials: Pick<ProxyCredentials, 'keep' | 'forget' | 'joined'>;
  /** What consent to raising a cap reads (payments/consent.ts). */
  readonly consent: ConsentDeps;
  readonly demo: boolean;
  readonly options: Pick<DeskCoreOptions, 'demoLibrarySecret' | 'walletConnectRelayUrl' | 'environment'>;
}

const SAVE_REMEDY = 'instead';

function settingsGet(ctx: SettingsHandlersDeps): SettingsView {
  const settings = ctx.settings.get();
  return settingsView(
    { ...settings, serviceUrl: ctx.service.serviceUrl() },
    ctx.librarySecret.view(),
    ctx.demo && Boolean(ctx.options.demoLibrarySecret),
    ctx.options.walletConnectRelayUrl ?? DEFAULT_WALLETCONNECT_RELAY_URL,
    // Masked, the address shows whether credentials are kept with it.
    networkView(
      { ...settings, proxy: ctx.proxyCredentials.joined(settings.proxy) },
      ctx.options.environment ?? process.env,
    ),
  );
}

/** A manual proxy given without its address keeps the one saved, whose credentials the window never saw. */
function proxyToStore(ctx: SettingsHandlersDeps, proxy: SettingsPatch['proxy']): StoredProxy | undefined {
  if (proxy?.mode !== 'manual') return proxy;
  const saved = ctx.settings.get().proxy;
  const url = proxy.url ?? (saved.mode === 'manual' ? saved.url : null);
  if (url === null)
    throw new DeskError(
      'proxy_invalid',
      "Give the proxy's address (http://host:port) to use a proxy of your own; nothing was changed.",
      'usage',
    );
  return { mode: 'manual', url, noProxy: proxy.noProxy };
}

/** Once nothing refused the change: a new address's credentials go to their sealed file, never to desk.db. */
function sealCredentials(
  ctx: SettingsHandlersDeps,
  stored: StoredProxy,
  asked: SettingsPatch['proxy'],
): StoredProxy {
  if (stored.mode !== 'manual') {
    ctx.proxyCredentials.forget();
    return stored;
  }
  // Without an address of its own the change keeps the saved one, and the credentials sealed with it.
  if (asked?.mode === 'manual' && asked.url === undefined) return stored;
  return { ...stored, url: ctx.proxyCredentials.keep(stored.url) };
}

async function setLibrarySecret(ctx: SettingsHandlersDeps, secret: string): Promise<SettingsView> {
  ctx.librarySecret.set(secret);
  await ctx.librarySecret.check();
  return settingsGet(ctx);
}

/** The demo's own public secret, used by core on request; it never crosses to the renderer. */
async function useDemoLibrarySecret(ctx: SettingsHandlersDeps): Promise<SettingsView> {
  const secret = ctx.options.demoLibrarySecret;
  if (!ctx.demo || !secret)
    throw new DeskError('no_demo_secret', 'Only the demo has a library secret to offer.', 'usage');
  return setLibrarySecret(ctx, secret);
}

export const settingsHandlers = (
  ctx: SettingsHandlersDeps,
): Pick<
  RpcHandlers,
  | 'settings.get'
  | 'settings.update'
  | 'settings.setLibrarySecret'
  | 'settings.useDemoLibrarySecret'
  | 'settings.useSessionLibrarySecret'
  | 'settings.clearLibrarySecret'
> => ({
  'settings.get': async () => settingsGet(ctx),
  'settings.update': async ({ serviceUrl, passphrase, proxy, ...rest }) => {
    // Refused before anything is saved: a payment's terms and its outcome must not travel in the clear, and a
    // refused raise changes no setting, the service included.
    if (serviceUrl !== undefined) requireEncryptedOrLocal('service', serviceUrl, SAVE_REMEDY);
    if (rest.chainRpcUrl) requireEncryptedOrLocal('chain RPC', rest.chainRpcUrl, SAVE_REMEDY);
    const storedProxy = proxyToStore(ctx, proxy);
    // A file of no certificates would fail every connection later; it is refused now, with the reason.
    if (rest.caFile) readCaFile(rest.caFile);
    await consentToCaps(ctx.consent, rest, passphrase);
    if (serviceUrl !== undefined) ctx.service.chooseService(serviceUrl);
    ctx.settings.update({
      ...rest,
      ...(storedProxy ? { proxy: sealCredentials(ctx, storedProxy, proxy) } : {}),
    });
    return settingsGet(ctx);
  },
  'settings.setLibrarySecret': ({ secret, fromEnvironment }) => {
    if (fromEnvironment) ctx.librarySecret.environmentOrigin(fromEnvironment.boundTo);
    return setLibrarySecret(ctx, secret);
  },
  'settings.useDemoLibrarySecret': () => useDemoLibrarySecret(ctx),
  'settings.useSessionLibrarySecret': async ({ secret, boundTo }) => {
    ctx.librarySecret.useForSession(secret, boundTo);
    return settingsGet(ctx);
  },
  'settings.clearLibrarySecret': async () => {
    ctx.librarySecret.set(null);
    return settingsGet(ctx);
  },
});
