/**
 * The first CLI run after an upgrade that fills new tables: the list is the whole library, newest first, though
 * the filling started in the background (the run finishes it first, printing its progress while it does).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LibraryItem } from '../../src/shared/rpc';
import { tempDir } from '../core/helpers';
import { REPORTS, version7Library } from '../core/version7-library';
import { runCli } from './run-cli';

describe('intel-desk library after an upgrade', () => {
  it('lists the whole library', async () => {
    const data = tempDir('cli-upgrade-');
    try {
      version7Library(path.join(data.dir, 'desk.db'));
      const run = await runCli(
        ['library', '--json', '--data-dir', data.dir, '--service', 'http://127.0.0.1:9'],
        {},
      );
      expect(run.code, run.stderr).toBe(0);
      const items = JSON.parse(run.stdout) as LibraryItem[];
      expect(items).toHaveLength(REPORTS);
      expect(items[0]?.id).toBe(`r${REPORTS}`);
    } finally {
      data.remove();
    }
  });
});
