/** Settings, including the write-only library secret: the UI learns only whether it is set and accepted. */
import type { SettingsView } from '../../shared/rpc';
import type { DeskContext } from '../context';
import { settingsView } from '../settings';
import { DeskError } from '../errors';

export function settingsGet(ctx: DeskContext): SettingsView {
  let set = false;
  try {
    set = ctx.librarySecret() !== null;
  } catch {
    set = false;
  }
  return settingsView(ctx.settings.get(), { set, accepted: set ? ctx.librarySecretAccepted : null });
}

/** Asks the bundle route whether the service accepts the secret; unknown (null) when it cannot be asked. */
export async function checkLibrarySecret(ctx: DeskContext, secret: string): Promise<boolean | null> {
  try {
    const shelf = await ctx.client().list();
    const first = shelf.entries[0];
    if (!first) return null;
    await ctx.client().bundleGet(first.username, secret);
    return true;
  } catch (error) {
    if (
      error instanceof DeskError &&
      (error.code === 'invalid_library_secret' || error.code === 'library_secret_required')
    )
      return false;
    if (error instanceof DeskError && error.code === 'unknown_handle') return true;
    return null;
  }
}
