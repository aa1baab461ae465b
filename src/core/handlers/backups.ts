/**
 * Copies of the library: take one now, see the last, restore one (src/core/backup/); and restore purchases from
 * the service by signing in with the wallet (src/core/restore/).
 */
import type { BackupView, RpcHandlers } from '../../shared/rpc';
import type { LibraryBackup } from '../backup/library-backup';
import type { DeskContext } from '../context';

const view = (backup: LibraryBackup): BackupView => ({
  file: backup.file,
  takenAt: backup.takenAt,
  reason: backup.reason,
  bytes: backup.bytes,
});

export const backupHandlers = (
  ctx: DeskContext,
): Pick<
  RpcHandlers,
  'library.backup' | 'library.backups' | 'library.restore' | 'library.restorePurchases'
> => ({
  'library.backup': async () => view(await ctx.backups.backupNow('manual')),
  'library.backups': async () => {
    const status = ctx.backups.status();
    return { ...status, last: status.last ? view(status.last) : null };
  },
  'library.restore': async ({ from }) => {
    const restored = await ctx.backups.restoreFrom(from);
    return { reports: restored.reports, safetyCopy: view(restored.safetyCopy) };
  },
  'library.restorePurchases': ({ signed }) =>
    ctx.restores.step(
      signed ? { message: signed.message, signature: signed.signature as `0x${string}` } : undefined,
    ),
});
