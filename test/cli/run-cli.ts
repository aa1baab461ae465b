/** Runs the real bin entry (bin/intel-desk.mjs) as a child process, the way a person or a script would. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Stack } from '../../src/service/stack';

export const root = path.resolve(import.meta.dirname, '../..');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `input`, when given, is piped to stdin (as `intel-desk secret set < file` would). */
export function runCli(
  args: string[],
  env: Record<string, string | undefined>,
  cwd = root,
  input?: string,
): Promise<Run> {
  return startCli(args, env, cwd, input).done;
}

/** runCli with the child at hand, for a test that signals it mid-run. */
export function startCli(
  args: string[],
  env: Record<string, string | undefined>,
  cwd = root,
  input?: string,
): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, [path.join(root, 'bin/intel-desk.mjs'), ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  child.stdin?.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

export const parsed = <T>(run: Run): T => JSON.parse(run.stdout) as T;

/**
 * A CLI run on a test stack: its service, chain and demo token, this data folder, and nothing the caller's
 * shell may hold (a passphrase or key there would change what the run can sign).
 */
export function stackEnv(stack: Stack, dataDir: string): Record<string, string | undefined> {
  return {
    INTEL_DESK_SERVICE_URL: stack.baseUrl,
    INTEL_DESK_DATA_DIR: dataDir,
    INTEL_DESK_RPC_URL: stack.rpcUrl,
    INTEL_DESK_DEMO: '1',
    INTEL_DESK_DEMO_ASSET: stack.asset,
    INTEL_DESK_PASSPHRASE: undefined,
    INTEL_DESK_PRIVATE_KEY: undefined,
    INTEL_DESK_CLOCK_OFFSET_MS: undefined,
  };
}

/**
 * The desk's clock for a file whose CLI runs compare a purchase with "today": sameDayOffset() (test/core/
 * clock.ts), decided once when the file starts, passed to every run; `now` reads "today" the same way.
 */
export function sameDayCliClock(offsetMs: number): { env: Record<string, string>; now: () => number } {
  return { env: { INTEL_DESK_CLOCK_OFFSET_MS: String(offsetMs) }, now: () => Date.now() + offsetMs };
}
