import { chmodSync } from 'node:fs';

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
