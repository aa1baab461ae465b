/**
 * Copies of the library: take one now, see them, restore one (src/core/backup/); and restore purchases from
 * the service by signing in with the wallet (src/core/restore/).
 */
import path from 'node:path';
import type { BackupView, RpcHandlers } from '../../shared/rpc';
import type { LibraryBackup } from '../db/library-backup';
import type { LibraryBackups } from '../backup/scheduler';
import type { SnapshotStore } from '../library/snapshots';
import type { PurchaseRestores } from '../restore/restores';

export interface BackupHandlersDeps {
  readonly backups: LibraryBackups;
  readonly snapshots: Pick<SnapshotStore, 'reportsReplaced'>;
  readonly restores: Pick<PurchaseRestores, 'step'>;
}
import { DeskError } from '../base/errors';

const view = (backup: LibraryBackup): BackupView => ({
  file: backup.file,
  takenAt: backup.takenAt,
  reason: backup.reason,
  bytes: backup.bytes,
});

export const backupHandlers = (
  ctx: BackupHandlersDeps,
): Pick<
  RpcHandlers,
  | 'library.backup'
  | 'library.backups'
  | 'library.pickRestoreFile'
  | 'library.restore'
  | 'library.restorePurchases'
> => ({
  'library.backup': async () => view(await ctx.backups.backupNow('manual')),
  'library.backups': async () => {
    const status = ctx.backups.status();
    return { ...status, last: status.last ? view(status.last) : null, copies: status.copies.map(view) };
  },
  'library.pickRestoreFile': async ({ file }) => ctx.backups.picks.pick(file),
  'library.restore': async (input) => {
    let file: string;
    if ('backup' in input) file = path.join(ctx.backups.folder, input.backup);
    else {
      const pick = ctx.backups.picks.peek(input.picked);
      if (pick.outsideBackups && input.confirmedOutside !== true)
        throw new DeskError(
          'backup_outside_unconfirmed',
          `${pick.file} is outside the backups folder (${ctx.backups.folder}): restore it only if you know where it came from, and confirm that you do. Nothing was changed.`,
          'usage',
          { file: pick.file },
        );
      file = ctx.backups.picks.take(input.picked).file;
    }
    const restored = await ctx.backups.restoreFrom(file);
    // The restored reports are indexed for search again, in the background.
    ctx.snapshots.reportsReplaced();
    return { ...restored, safetyCopy: view(restored.safetyCopy) };
  },
  'library.restorePurchases': ({ signed }) =>
    ctx.restores.step(
      signed ? { message: signed.message, signature: signed.signature as `0x${string}` } : undefined,
    ),
});
