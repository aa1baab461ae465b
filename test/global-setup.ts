/**
 * Runs once, before any test file: builds what the tests run from, when it is missing or older than its
 * sources. Test files run in parallel workers, so none of them may build into out/ itself: two builds at
 * once would empty each other's output (build-cli.mjs removes out/cli first) under a running test.
 * - out/renderer, out/main, out/preload (electron-vite): the e2e desks serve the renderer, core-thread runs
 *   out/main/core-worker.js, and `npm start`'s script finds them fresh instead of building.
 * - out/cli (scripts/build-cli.mjs): the CLI tests run bin/intel-desk.mjs, which falls back to compiling
 *   the TypeScript through tsx on every run when out/cli is stale.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildIfStale } from '../scripts/build-if-stale';
// @ts-expect-error plain ESM module without types: the bin must run before anything compiles TypeScript
import { cliEntry } from '../bin/cli-entry.mjs';

const root = path.resolve(import.meta.dirname, '..');

function buildCli(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts', 'build-cli.mjs')], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`scripts/build-cli.mjs exited with ${code}`)),
    );
  });
}

export default async function setup(): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  await buildIfStale(root, log);
  if ((cliEntry(root) as { kind: string }).kind !== 'compiled') {
    log('Building the CLI (out/cli is missing or older than the sources)…');
    await buildCli();
  }
}
