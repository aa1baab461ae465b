/** Settings, including the write-only library secret: the UI learns only where it is set and how it fared. */
import type { RpcHandlers, SettingsPatch, SettingsView } from '../../shared/rpc';
import type { DeskContext } from '../context';
import { networkView, settingsView } from '../settings';
import { readCaFile } from '../net/certificates';
import type { StoredProxy } from '../net/proxy-route';
import { DeskError } from '../errors';
import { consentToCaps } from '../consent';
import { DEFAULT_WALLETCONNECT_RELAY_URL } from '../../shared/walletconnect-relay';
import { requireEncryptedOrLocal } from '../transport';

const SAVE_REMEDY = 'instead';

function settingsGet(ctx: DeskContext): SettingsView {
  const settings = ctx.settings.get();
  return settingsView(
    { ...settings, serviceUrl: ctx.serviceUrl() },
    ctx.librarySecret.view(),
    ctx.demo && Boolean(ctx.options.demoLibrarySecret),
    ctx.options.walletConnectRelayUrl ?? DEFAULT_WALLETCONNECT_RELAY_URL,
    networkView(settings, ctx.options.environment ?? process.env),
  );
}

/** A manual proxy given without its address keeps the one saved, whose credentials the window never saw. */
function proxyToStore(ctx: DeskContext, proxy: SettingsPatch['proxy']): StoredProxy | undefined {
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

async function setLibrarySecret(ctx: DeskContext, secret: string): Promise<SettingsView> {
  ctx.librarySecret.set(secret);
  await ctx.librarySecret.check();
  return settingsGet(ctx);
}

/** The demo's own public secret, used by core on request; it never crosses to the renderer. */
async function useDemoLibrarySecret(ctx: DeskContext): Promise<SettingsView> {
  const secret = ctx.options.demoLibrarySecret;
  if (!ctx.demo || !secret)
    throw new DeskError('no_demo_secret', 'Only the demo has a library secret to offer.', 'usage');
  return setLibrarySecret(ctx, secret);
}

export const settingsHandlers = (
  ctx: DeskContext,
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
    await consentToCaps(ctx, rest, passphrase);
    if (serviceUrl !== undefined) ctx.chooseService(serviceUrl);
    ctx.settings.update({ ...rest, ...(storedProxy ? { proxy: storedProxy } : {}) });
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
