/** Settings, including the write-only library secret: the UI learns only where it is set and how it fared. */
import type { RpcHandlers, SettingsView } from '../../shared/rpc';
import type { DeskContext } from '../context';
import { settingsView } from '../settings';
import { DeskError } from '../errors';
import { consentToCaps } from '../consent';
import { DEFAULT_WALLETCONNECT_RELAY_URL } from '../../shared/walletconnect-relay';

function settingsGet(ctx: DeskContext): SettingsView {
  return settingsView(
    { ...ctx.settings.get(), serviceUrl: ctx.serviceUrl() },
    ctx.librarySecret.view(),
    ctx.demo && Boolean(ctx.options.demoLibrarySecret),
    ctx.options.walletConnectRelayUrl ?? DEFAULT_WALLETCONNECT_RELAY_URL,
  );
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
  'settings.update': async ({ serviceUrl, passphrase, ...rest }) => {
    // Checked before anything is saved: a refused raise changes no setting, the service included.
    await consentToCaps(ctx, rest, passphrase);
    if (serviceUrl !== undefined) ctx.chooseService(serviceUrl);
    ctx.settings.update(rest);
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
