/**
 * What a command line is expected to do (issue 45): --version and -V, `help` and `help <command>`, a flag the
 * command does not take refused with exit 2 naming the flags it does, and a reader that stops early
 * (`| head -3`) ending the run quietly with exit 0.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json';
import { closedPortUrl } from '../closed-port';
import { tempDir } from '../core/helpers';
import { root, runCli, type Run } from './run-cli';

let data: ReturnType<typeof tempDir>;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  data = tempDir('desk-cli-habits-');
  // No service answers: nothing here reaches one.
  env = {
    INTEL_DESK_DATA_DIR: data.dir,
    INTEL_DESK_SERVICE_URL: await closedPortUrl(),
    INTEL_DESK_PRIVATE_KEY: undefined,
  };
});
afterAll(() => data?.remove());

describe('--version and help', () => {
  it('prints the version for --version and -V, with any command or none', async () => {
    for (const args of [['--version'], ['-V'], ['library', '--version']]) {
      const run = await runCli(args, env);
      expect(run, args.join(' ')).toMatchObject({
        code: 0,
        stdout: `intel-desk ${packageJson.version}\n`,
        stderr: '',
      });
    }
  });

  it('shows the usage for help, and one command for help <command>', async () => {
    const [help, usage, wallet, walletHelp] = await Promise.all([
      runCli(['help'], env),
      runCli(['--help'], env),
      runCli(['help', 'wallet'], env),
      runCli(['wallet', '--help'], env),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(usage.stdout);
    expect(help.stdout).toMatch(/^ {2}help \[<command>\] +this list, or one command/m);
    expect(wallet.code).toBe(0);
    expect(wallet.stdout).toBe(walletHelp.stdout);
    expect(wallet.stdout).toMatch(/^intel-desk wallet status/);
  });

  it('refuses help for a command that does not exist, naming the nearest', async () => {
    const run = await runCli(['help', 'wallte'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/help: no command "wallte"\. Did you mean wallet\?/);
  });
});

describe('a flag the command does not take', () => {
  async function refused(args: string[], flag: string, takes: RegExp): Promise<Run> {
    const run = await runCli(args, env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`does not take ${flag}.`);
    expect(run.stderr).toMatch(takes);
    return run;
  }

  it('is refused with exit 2, naming the flags the command takes', async () => {
    await refused(
      ['library', '--format', 'pdf'],
      '--format',
      /Its options: --handle h, --limit N, and the shared ones \(--json, /,
    );
    await refused(['spend', '--limit', '3'], '--limit', /Its options: --days N, and the shared ones/);
    await refused(['list', '--yes'], '--yes', /It takes only the shared options \(--json, .*--key-file F\)/);
    await refused(
      ['completion', 'bash', '--key-file', 'k'],
      '--key-file',
      /It takes only the shared options \(--json, .*--version\)/,
    );
  });

  it('is refused as JSON under --json', async () => {
    const run = await runCli(['library', '--format', 'pdf', '--json'], env);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: { code: 'usage', message: expect.stringContaining('library does not take --format') },
    });
  });

  it('leaves the global options valid for every command', async () => {
    const run = await runCli(['library', '--json', '--timeout', '5', '--data-dir', data.dir], env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});

describe('a reader that stops early', () => {
  /** The CLI with its stdout a pipe whose reading end is closed before it writes, as `| head` leaves it. */
  function withReaderGone(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [path.join(root, 'bin/intel-desk.mjs'), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  }

  it('ends the run with exit 0 and no stack trace', async () => {
    for (const args of [['library', '--json'], ['--help'], ['completion', 'bash']]) {
      const run = await withReaderGone(args);
      expect(run, args.join(' ')).toEqual({ code: 0, stderr: '' });
    }
  });
});
