/**
 * The bin runs the compiled CLI only while it is as new as every source it was built from; `npm run desk`
 * (scripts/desk.mjs) rebuilds it first when it is not, so it never compiles TypeScript on every command.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM module without types: the bin must run before anything compiles TypeScript
import { cliEntry } from '../../bin/cli-entry.mjs';
// @ts-expect-error plain ESM module without types, like the bin
import { freshCli } from '../../scripts/desk.mjs';
import { tempDir } from '../core/helpers';
import { root as repo } from './run-cli';

const entryOf = cliEntry as (root: string) => { kind: 'compiled' | 'source'; file: string };
const fresh = freshCli as (
  root: string,
  build: (root: string) => boolean,
  log: (line: string) => void,
) => 'fresh' | 'rebuilt' | 'source';

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
    touch(path.join(dir.dir, 'src/shared/rpc/index.ts'), 1_000);
    mkdirSync(path.join(dir.dir, 'bin'));
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

  it('npm run desk rebuilds a stale CLI once, then runs the compiled file', () => {
    const root = checkout();
    touch(path.join(root, 'out/cli/main.mjs'), 2_000);
    touch(path.join(root, 'src/cli/main.ts'), 3_000);
    const builds: string[] = [];
    const lines: string[] = [];
    const build = (at: string) => {
      builds.push(at);
      touch(path.join(at, 'out/cli/main.mjs'), 4_000);
      return true;
    };
    expect(fresh(root, build, (line) => lines.push(line))).toBe('rebuilt');
    expect(entryOf(root).kind).toBe('compiled');
    expect(fresh(root, build, (line) => lines.push(line))).toBe('fresh');
    expect(builds).toEqual([root]);
    expect(lines).toEqual([
      'intel-desk: sources changed since the CLI was built; rebuilding it (node scripts/build-cli.mjs)…',
    ]);
  });

  it('npm run desk falls back to the TypeScript, saying so, when the build fails', () => {
    const root = checkout();
    const lines: string[] = [];
    expect(
      fresh(
        root,
        () => false,
        (line) => lines.push(line),
      ),
    ).toBe('source');
    expect(lines.at(-1)).toBe(
      'intel-desk: the build failed; running the TypeScript through tsx instead (slower).',
    );
  });

  it('the bin says how to get a CLI when the sources are newer and tsx is not installed', () => {
    // A checkout installed without its devDependencies: the bin and the sources, no out/cli, no node_modules.
    const root = checkout();
    writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }');
    for (const file of ['intel-desk.mjs', 'cli-entry.mjs'])
      copyFileSync(path.join(repo, 'bin', file), path.join(root, 'bin', file));
    const run = spawnSync(process.execPath, [path.join(root, 'bin/intel-desk.mjs'), '--help'], { cwd: root });
    expect(run.status).toBe(1);
    expect(run.stderr.toString()).toBe(
      'intel-desk: the compiled CLI (out/cli) is missing or older than its sources, and tsx, which runs the sources, is not installed. Run `npm install` (it installs the development packages and builds the CLI), or `node scripts/build-cli.mjs` where esbuild is installed.\n',
    );
  });

  it('npm run desk runs the compiled CLI of this checkout', () => {
    const manifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts['desk']).toBe('node scripts/desk.mjs');
    // The global setup built out/cli from these sources: nothing is rebuilt, and the help comes back.
    const run = spawnSync(process.execPath, [path.join(repo, 'scripts/desk.mjs'), '--help'], { cwd: repo });
    expect(run.status).toBe(0);
    expect(run.stdout.toString()).toMatch(/^intel-desk <command> \[options\]/);
    expect(run.stderr.toString()).toBe('');
  });
});
