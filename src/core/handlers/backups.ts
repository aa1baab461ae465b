/** Copies of the library: take one now, see the last, restore one (src/core/backup/). */
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
): Pick<RpcHandlers, 'library.backup' | 'library.backups' | 'library.restore'> => ({
  'library.backup': async () => view(await ctx.backups.backupNow('manual')),
  'library.backups': async () => {
    const status = ctx.backups.status();
    return { ...status, last: status.last ? view(status.last) : null };
  },
  'library.restore': async ({ from }) => {
    const restored = await ctx.backups.restoreFrom(from);
    return { reports: restored.reports, safetyCopy: view(restored.safetyCopy) };
  },
});
