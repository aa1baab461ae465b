import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Makes a file or folder the owner's alone. Another desk process on the same folder may remove a SQLite
 * journal, -wal or -shm file between our listing and our chmod; a file that is gone needs no protecting.
 */
export function chmodIfPresent(target: string, mode: number): void {
  if (process.platform === 'win32') return;
  try {
    chmodSync(target, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * The data folder holds the library, purchase history, keys and the sealed secret: 0700, and every file in
 * it 0600, including files an older version left readable by others.
 */
export function ownerOnlyDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  chmodIfPresent(dataDir, 0o700);
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isFile()) chmodIfPresent(path.join(dataDir, entry.name), 0o600);
  }
}
