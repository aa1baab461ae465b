/**
 * CLI start-up: `intel-desk --help` and a simple command (`library` on an empty desk) against a bare
 * `node -e 0`, each run as a person runs them (through bin/intel-desk.mjs, the compiled CLI).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error plain ESM module without types (the bin's own choice of compiled file or source)
import { cliEntry } from '../bin/cli-entry.mjs';
import { percentile, round, timeMs, type Section } from './measure';

const RUNS = 15;
const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'bin', 'intel-desk.mjs');

function median(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const samples = Array.from({ length: RUNS }, () =>
    timeMs(() => execFileSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] })),
  );
  return percentile(samples, 50);
}

export const cliSection: Section = {
  name: 'cli start-up',
  async run() {
    if ((cliEntry as (root: string) => { kind: string })(root).kind !== 'compiled')
      execFileSync(process.execPath, [path.join(root, 'scripts', 'build-cli.mjs')], { stdio: 'inherit' });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-cli-'));
    try {
      const bare = median(['-e', '0']);
      const help = median([bin, '--help']);
      const library = median([
        bin,
        'library',
        '--json',
        '--data-dir',
        dataDir,
        '--service',
        'http://127.0.0.1:9',
      ]);
      return {
        node_bare_median_ms: round(bare, 1),
        cli_help_median_ms: round(help, 1),
        cli_help_ratio: round(help / bare),
        cli_library_empty_median_ms: round(library, 1),
        cli_library_empty_ratio: round(library / bare),
      };
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
