import { describe, expect, it } from 'vitest';
import { chmodSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDeskCore } from '../../src/core';
import { chmodIfPresent } from '../../src/core/base/owner-only';
import { tempDir } from './helpers';

/** A well-known anvil test key: nothing of value. */
const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

const mode = (file: string) => statSync(file).mode & 0o777;

function modes(dir: string): Record<string, number> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, mode(path.join(dir, name))]));
}

describe.skipIf(process.platform === 'win32')('files on disk', () => {
  it('creates the data folder 0700 and every file in it 0600, WAL files included', async () => {
    const temp = tempDir('desk-perms-');
    try {
      const dataDir = path.join(temp.dir, 'desk');
      // No service answers here: the secret's check against the service fails at once and it stays unchecked.
      const desk = await createDeskCore({
        dataDir,
        serviceUrl: 'https://reports.example.com',
        attempts: 1,
        fetch: () => Promise.reject(new TypeError('fetch failed')),
      });
      try {
        await desk.handlers['wallet.import']({ privateKey: KEY, passphrase: 'a long enough passphrase' });
        await desk.handlers['settings.setLibrarySecret']({ secret: 'first-party secret' });
        await desk.handlers['settings.update']({ theme: 'dark' });
        expect(mode(dataDir)).toBe(0o700);
        const files = modes(dataDir);
        expect(Object.keys(files)).toEqual(
          expect.arrayContaining([
            'desk.db',
            'desk.db-wal',
            'desk.db-shm',
            'wallet.json',
            'local.key',
            'library-secret.sealed',
          ]),
        );
        for (const [name, bits] of Object.entries(files)) expect([name, bits]).toEqual([name, 0o600]);
      } finally {
        await desk.close();
      }
    } finally {
      temp.remove();
    }
  });

  it('tightens a folder and files an earlier version left readable by others', async () => {
    const temp = tempDir('desk-perms-');
    try {
      const dataDir = temp.dir;
      const first = await createDeskCore({ dataDir });
      await first.handlers['wallet.import']({ privateKey: KEY, passphrase: 'a long enough passphrase' });
      await first.close();
      writeFileSync(path.join(dataDir, 'notes.txt'), 'left by hand');
      chmodSync(dataDir, 0o755);
      for (const name of readdirSync(dataDir)) chmodSync(path.join(dataDir, name), 0o644);
      const desk = await createDeskCore({ dataDir });
      try {
        expect(mode(dataDir)).toBe(0o700);
        for (const [name, bits] of Object.entries(modes(dataDir)))
          expect([name, bits]).toEqual([name, 0o600]);
      } finally {
        await desk.close();
      }
    } finally {
      temp.remove();
    }
  });

  it('passes over a journal another process removed after the listing, and reports any other failure', () => {
    const temp = tempDir('desk-perms-');
    try {
      const journal = path.join(temp.dir, 'desk.db-journal');
      writeFileSync(journal, '');
      rmSync(journal);
      expect(() => chmodIfPresent(journal, 0o600)).not.toThrow();
      const notAFolder = path.join(temp.dir, 'notes.txt');
      writeFileSync(notAFolder, '');
      expect(() => chmodIfPresent(path.join(notAFolder, 'desk.db'), 0o600)).toThrow(/ENOTDIR/);
    } finally {
      temp.remove();
    }
  });
});
