/**
 * The wallet a data folder holds, read before core opens the folder: the demo's check (src/host/boot.ts) must
 * refuse a folder holding another wallet before anything in it changes, and it asks core rather than reading
 * the wallet file itself.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { backupsFolder } from '../db/backups-folder';
import { keepReplacedKeystore } from '../backup/keystore-backup';
import { DeskError } from '../base/errors';
import type { SecretVault } from './sealing';
import { DeskWallet } from './wallet';

/** Where a data folder keeps its wallet. */
export function walletFileIn(dataDir: string): string {
  return path.join(dataDir, 'wallet.json');
}

/**
 * The address of the folder's wallet; null when it holds none, and what is wrong (the DeskError's message) when
 * its file cannot be read.
 */
export function folderWallet(
  dataDir: string,
  vault?: SecretVault,
): { address: `0x${string}` | null } | { unreadable: string } {
  try {
    return { address: new DeskWallet(walletFileIn(dataDir), vault).address() };
  } catch (error) {
    return { unreadable: error instanceof DeskError ? error.message : 'an unreadable wallet file' };
  }
}

/** Keeps the folder's wallet (of `address`) in backups/ and takes it out of the folder. */
export function setFolderWalletAside(dataDir: string, address: string): void {
  const file = walletFileIn(dataDir);
  keepReplacedKeystore(file, backupsFolder(dataDir), address);
  rmSync(file);
}
