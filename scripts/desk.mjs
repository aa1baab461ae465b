#!/usr/bin/env node
// `npm run desk`: the compiled CLI that `npm install` builds (out/cli, the `prepare` step). When a source
// changed since, it is rebuilt first (about a second with esbuild) rather than run through tsx, which compiles
// the TypeScript again on every command (2–6 s each). Plain JavaScript, like the bin it starts.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliEntry } from '../bin/cli-entry.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function buildCli(at) {
  const run = spawnSync(process.execPath, [path.join(at, 'scripts', 'build-cli.mjs')], {
    cwd: at,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return run.status === 0;
}

/**
 * Makes out/cli as new as its sources, building when it is not.
 * @returns {'fresh' | 'rebuilt' | 'source'} 'source' when the build failed and the bin will run the TypeScript
 */
export function freshCli(at, build = buildCli, log = (line) => process.stderr.write(`${line}\n`)) {
  if (cliEntry(at).kind === 'compiled') return 'fresh';
  log('intel-desk: sources changed since the CLI was built; rebuilding it (node scripts/build-cli.mjs)…');
  if (build(at) && cliEntry(at).kind === 'compiled') return 'rebuilt';
  log('intel-desk: the build failed; running the TypeScript through tsx instead (slower).');
  return 'source';
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  freshCli(root);
  await import('../bin/intel-desk.mjs');
}
