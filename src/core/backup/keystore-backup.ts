/** The keystore a wallet import replaces is kept, byte for byte, among the backups: it may be a key's only copy. */
import { chmodSync, copyFileSync, constants } from 'node:fs';
import path from 'node:path';
import { DeskError } from '../base/errors';
import { ensureBackupsFolder, fileStamp } from '../db/backups-folder';

/** Copies wallet.json into `folder` as wallet-<address>-<time>.json (0600); returns where. */
export function keepReplacedKeystore(
  walletFile: string,
  folder: string,
  address: string,
  at: Date = new Date(),
): string {
  const label = /^0x[0-9a-fA-F]{40}$/.test(address) ? address : 'unreadable';
  const target = path.join(folder, `wallet-${label}-${fileStamp(at)}.json`);
  try {
    ensureBackupsFolder(folder);
    // COPYFILE_EXCL: an existing backup is never overwritten.
    copyFileSync(walletFile, target, constants.COPYFILE_EXCL);
    if (process.platform !== 'win32') chmodSync(target, 0o600);
  } catch (error) {
    throw new DeskError(
      'keystore_backup_failed',
      `The current wallet could not be kept in ${folder} (${(error as Error).message}), so it was not replaced.`,
      'storage',
      {},
      { cause: error },
    );
  }
  return target;
}
