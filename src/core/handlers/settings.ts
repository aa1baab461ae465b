/** Settings, including the write-only library secret: the UI learns only where it is set and how it fared. */
import type { RpcHandlers, SettingsView } from '../../shared/rpc';
import type { DeskContext } from '../context';
import { settingsView } from '../settings';
import { DeskError } from '../errors';
import { DEFAULT_WALLETCONNECT_RELAY_URL } from '../../shared/walletconnect-relay';
import { serviceOrigin, type LibrarySecretStatus } from '../library-secret';

function settingsGet(ctx: DeskContext): SettingsView {
  let status: LibrarySecretStatus = { origin: null, state: null };
  try {
    status = ctx.librarySecrets.status();
  } catch {
    // A secret that cannot be unsealed here is shown as not set; entering it again replaces it.
  }
  const set = status.origin !== null && status.origin === serviceOrigin(ctx.serviceUrl());
  const accepted = status.state === 'accepted' ? true : status.state === 'refused' ? false : null;
  return settingsView(
    { ...ctx.settings.get(), serviceUrl: ctx.serviceUrl() },
    { set, accepted: set ? accepted : null, origin: status.origin },
    ctx.demo && Boolean(ctx.options.demoLibrarySecret),
    ctx.options.walletConnectRelayUrl ?? DEFAULT_WALLETCONNECT_RELAY_URL,
  );
}

const refusal = (error: unknown) =>
  error instanceof DeskError &&
  (error.code === 'invalid_library_secret' || error.code === 'library_secret_required');

/**
 * Runs one request that carries the library secret and records the service's answer to it: a refusal is
 * kept, so the secret stops standing in for buying until it is entered again.
 */
export async function withLibrarySecret<T>(
  ctx: DeskContext,
  access: { secret: string },
  request: () => Promise<T>,
): Promise<T> {
  try {
    const answer = await request();
    ctx.librarySecrets.mark(access.secret, 'accepted');
    return answer;
  } catch (error) {
    if (refusal(error)) ctx.librarySecrets.mark(access.secret, 'refused');
    // The route checks the secret before it looks for the handle.
    else if (error instanceof DeskError && error.code === 'unknown_handle')
      ctx.librarySecrets.mark(access.secret, 'accepted');
    throw error;
  }
}

/** Asks the bundle route whether the service accepts the stored secret; no answer leaves it unchecked. */
async function checkLibrarySecret(ctx: DeskContext): Promise<void> {
  const access = ctx.libraryAccess();
  if (!access) return;
  try {
    const shelf = await access.client.list();
    const first = shelf.entries[0];
    if (!first) return;
    await withLibrarySecret(ctx, access, () => access.client.bundleGet(first.username, access.secret));
  } catch {
    // Unreachable or not answering: the secret stays unchecked, and the next request that carries it tells.
  }
}

async function setLibrarySecret(ctx: DeskContext, secret: string): Promise<SettingsView> {
  ctx.setLibrarySecret(secret);
  await checkLibrarySecret(ctx);
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
  'settings.update': async ({ serviceUrl, ...rest }) => {
    if (serviceUrl !== undefined) ctx.chooseService(serviceUrl);
    ctx.settings.update(rest);
    return settingsGet(ctx);
  },
  'settings.setLibrarySecret': ({ secret, fromEnvironment }) => {
    if (fromEnvironment) ctx.environmentSecretOrigin(fromEnvironment.boundTo);
    return setLibrarySecret(ctx, secret);
  },
  'settings.useDemoLibrarySecret': () => useDemoLibrarySecret(ctx),
  'settings.useSessionLibrarySecret': async ({ secret, boundTo }) => {
    ctx.useLibrarySecretForSession(secret, boundTo);
    return settingsGet(ctx);
  },
  'settings.clearLibrarySecret': async () => {
    ctx.setLibrarySecret(null);
    return settingsGet(ctx);
  },
});
