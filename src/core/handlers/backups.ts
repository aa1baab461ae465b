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
  /**
   * Restores waiting for a wallet in the window to sign, by the message it was shown: two windows (or a double
   * click) each go on with their own challenge.
   */
  const waiting = new Map<string, PurchaseRestore>();

  async function restorePurchases(
    signed: { message: string; signature: `0x${string}` } | undefined,
  ): Promise<RestorePurchasesStep> {
    const { PurchaseRestore, restoreWithKey } = await import('../restore/restore-purchases');
    const address = ctx.wallet.address();
    const kind = ctx.wallet.kind();
    if (address === null || kind === null)
      throw new DeskError(
        'no_wallet',
        'Set up or connect the wallet that bought the reports first.',
        'wallet',
      );
    if (signed !== undefined) {
      const restore = waiting.get(signed.message);
      if (!restore || restore.address !== address)
        throw new DeskError(
          'restore_not_started',
          'No sign-in is waiting for this signature; start again.',
          'usage',
        );
      waiting.delete(signed.message);
      const next = await restore.signed(signed.signature);
      if (next === null) return { status: 'done', summary: restore.result() };
      return awaitSignature(restore, next.message, address);
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
    const account = kind === 'keystore' ? ctx.wallet.signingAccount() : null;
    if (kind === 'keystore' && !account)
      throw new DeskError('wallet_locked', 'Unlock the wallet with its passphrase first.', 'wallet');
    if (account) {
      const summary = await restoreWithKey(restore, (message) => account.signMessage({ message }));
      return { status: 'done', summary };
    }
    const first = await restore.begin();
    return awaitSignature(restore, first.message, address);
  }

  function awaitSignature(restore: PurchaseRestore, message: string, address: string): RestorePurchasesStep {
    // A window closed mid-restore leaves its entry: only the newest few are kept.
    if (waiting.size >= 8) waiting.delete(waiting.keys().next().value ?? '');
    waiting.set(message, restore);
    return { status: 'sign', message, address };
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
    'library.restorePurchases': ({ signed }) =>
      restorePurchases(
        signed ? { message: signed.message, signature: signed.signature as `0x${string}` } : undefined,
      ),
  };
};
