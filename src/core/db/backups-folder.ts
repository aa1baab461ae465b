/**
 * backups/ in the data folder: copies of the library (desk-*.db) and the keystores a wallet import replaced
 * (wallet-*.json). Private to the user like the data folder: the folder 0700, every file in it 0600.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';

export const BACKUPS_FOLDER = 'backups';

export const backupsFolder = (dataDir: string): string => path.join(dataDir, BACKUPS_FOLDER);

/** Creates the folder if needed and makes it owner-only, whatever an older run or umask left. */
export function ensureBackupsFolder(folder: string): string {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(folder, 0o700);
  return folder;
}

/** An empty owner-only file, created before SQLite or a copy writes into it, so it is never readable by others. */
export function createPrivateFile(file: string): void {
  closeSync(openSync(file, 'w', 0o600));
  if (process.platform !== 'win32') chmodSync(file, 0o600);
}

/** A time as a file-name part that sorts in time order: 20261125T133707123Z. */
export const fileStamp = (at: Date): string => at.toISOString().replace(/[-:.]/g, '');
