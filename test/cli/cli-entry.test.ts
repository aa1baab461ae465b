/** The bin runs the compiled CLI only while it is as new as every source it was built from. */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM module without types: the bin must run before anything compiles TypeScript
import { cliEntry } from '../../bin/cli-entry.mjs';
import { tempDir } from '../core/helpers';

const entryOf = cliEntry as (root: string) => { kind: 'compiled' | 'source'; file: string };

function touch(file: string, secondsSinceEpoch: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '');
  utimesSync(file, secondsSinceEpoch, secondsSinceEpoch);
}

describe('cliEntry', () => {
  const dirs: Array<{ remove(): void }> = [];
  afterEach(() => dirs.splice(0).forEach((dir) => dir.remove()));

  function checkout(): string {
    const dir = tempDir('desk-cli-entry-');
    dirs.push(dir);
    touch(path.join(dir.dir, 'package.json'), 1_000);
    touch(path.join(dir.dir, 'src/cli/main.ts'), 1_000);
    touch(path.join(dir.dir, 'src/core/payments/purchaser.ts'), 1_000);
    touch(path.join(dir.dir, 'src/shared/rpc.ts'), 1_000);
    return dir.dir;
  }

  it('runs the TypeScript when nothing was compiled', () => {
    const root = checkout();
    expect(entryOf(root)).toEqual({ kind: 'source', file: path.join(root, 'src/cli/main.ts') });
  });

  it('runs the compiled file when it is newer than every source', () => {
    const root = checkout();
    touch(path.join(root, 'out/cli/main.mjs'), 2_000);
    expect(entryOf(root)).toEqual({ kind: 'compiled', file: path.join(root, 'out/cli/main.mjs') });
  });

  it('runs the TypeScript again once any source under core changed after the build', () => {
    const root = checkout();
    touch(path.join(root, 'out/cli/main.mjs'), 2_000);
    touch(path.join(root, 'src/core/payments/purchaser.ts'), 3_000);
    expect(entryOf(root).kind).toBe('source');
  });
});
