/**
 * Copies of the library: take one now, see the last, restore one (src/core/backup/); and restore purchases from
 * the service by signing in with the wallet (src/core/restore/).
 */
import type { BackupView, RestorePurchasesStep, RpcHandlers } from '../../shared/rpc';
import type { LibraryBackup } from '../backup/library-backup';
import type { DeskContext } from '../context';
import { DeskError } from '../errors';
import type { PurchaseRestore } from '../restore/restore-purchases';

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
> => {
  /** A restore waiting for a wallet in the window to sign its next challenge. */
  let waiting: PurchaseRestore | null = null;

  async function restorePurchases(signature: `0x${string}` | undefined): Promise<RestorePurchasesStep> {
    const { PurchaseRestore, restoreWithKey } = await import('../restore/restore-purchases');
    const address = ctx.wallet.address();
    const kind = ctx.wallet.kind();
    if (address === null || kind === null)
      throw new DeskError(
        'no_wallet',
        'Set up or connect the wallet that bought the reports first.',
        'wallet',
      );
    if (signature !== undefined) {
      if (!waiting || waiting.address !== address)
        throw new DeskError(
          'restore_not_started',
          'No sign-in is waiting for a signature; start again.',
          'usage',
        );
      const restore = waiting;
      waiting = null;
      const next = await restore.signed(signature);
      if (next === null) return { status: 'done', summary: restore.result() };
      waiting = restore;
      return { status: 'sign', message: next.message, address };
    }
    const restore = new PurchaseRestore(
      ctx.connection.clientFor(ctx.serviceUrl()),
      {
        db: ctx.db,
        ledger: ctx.ledger,
        snapshots: ctx.snapshots,
        deliver: (purchaseId, body, text) => ctx.purchaser.deliver(purchaseId, body, text),
        now: ctx.now,
      },
      address,
    );
    const account = kind === 'keystore' ? ctx.wallet.unlockedAccount() : null;
    if (kind === 'keystore' && !account)
      throw new DeskError('wallet_locked', 'Unlock the wallet with its passphrase first.', 'wallet');
    if (account) {
      const summary = await restoreWithKey(restore, (message) => account.signMessage({ message }));
      return { status: 'done', summary };
    }
    const first = await restore.begin();
    waiting = restore;
    return { status: 'sign', message: first.message, address };
  }

  return {
    'library.backup': async () => view(await ctx.backups.backupNow('manual')),
    'library.backups': async () => {
      const status = ctx.backups.status();
      return { ...status, last: status.last ? view(status.last) : null };
    },
    'library.restore': async ({ from }) => {
      const restored = await ctx.backups.restoreFrom(from);
      return { reports: restored.reports, safetyCopy: view(restored.safetyCopy) };
    },
    'library.restorePurchases': ({ signature }) => restorePurchases(signature as `0x${string}` | undefined),
  };
};
