/**
 * `npm run service` as a process: one JSON line, then a clean stop on SIGINT (Ctrl-C), SIGTERM and SIGHUP with
 * anvil gone too. Each launch gets its own process group, so "no orphan" is checked by listing that group.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const posix = process.platform !== 'win32';

interface Launched {
  child: ChildProcess;
  pgid: number;
  stderr(): string;
  /** The JSON line, or null when the process exited without printing it. */
  info: Promise<Record<string, unknown> | null>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const launched: Launched[] = [];

afterEach(() => {
  // Only our own process groups, and only if a test failed before they stopped.
  for (const { pgid } of launched.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function launch(command: string, args: string[], env: Record<string, string> = {}): Launched {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid === undefined) throw new Error(`${command} did not start`);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const lines = createInterface({ input: child.stdout! });
  const info = Promise.race([
    once(lines, 'line').then(([line]) => JSON.parse(line as string) as Record<string, unknown>),
    exit.then(() => null),
  ]);
  const entry = { child, pgid: child.pid, stderr: () => stderr, info, exit };
  launched.push(entry);
  return entry;
}

function serviceProcess(args: string[] = [], env: Record<string, string> = {}): Launched {
  return launch(process.execPath, ['--import', 'tsx', 'src/service/main.ts', ...args], env);
}

/** Processes still alive in a process group, by command name. */
function groupMembers(pgid: number): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,pgid=,comm='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => Number(cols[1]) === pgid)
    .map((cols) => cols.slice(2).join(' '));
}

/**
 * What a stopped launch left behind. tsx transforms sources through an esbuild child when its cache misses; that
 * helper leaves by itself once its stdin closes, a moment after its parent, so it is not counted.
 */
function leftBehind(pgid: number): string[] {
  return groupMembers(pgid).filter((name) => name !== 'esbuild');
}

/** The pid of the process in the group whose child is anvil: the service that owns the chain. */
function chainOwner(pgid: number): number {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,comm='], { encoding: 'utf8' });
  const rows = table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => Number(cols[2]) === pgid);
  const anvil = rows.find((cols) => cols[3] === 'anvil');
  if (!anvil) throw new Error(`no anvil in process group ${pgid}`);
  return Number(anvil[1]);
}

async function waitForLine(proc: Launched, pattern: RegExp): Promise<void> {
  if (pattern.test(proc.stderr())) return;
  await new Promise<void>((resolve, reject) => {
    const onData = (): void => {
      if (pattern.test(proc.stderr())) {
        proc.child.stderr?.off('data', onData);
        resolve();
      }
    };
    proc.child.stderr?.on('data', onData);
    void proc.exit.then(() => reject(new Error(`exited before ${pattern}:\n${proc.stderr()}`)));
  });
}

async function blockNumber(rpcUrl: string): Promise<number> {
  const answer = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  });
  return Number(((await answer.json()) as { result: string }).result);
}

async function expectChainDown(rpcUrl: string): Promise<void> {
  await expect(fetch(rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
}

/** `npm run service` after Ctrl-C: exited as npm does, said so, anvil gone and nothing of the group left. */
async function expectStoppedByCtrlC(proc: Launched, info: Record<string, unknown>): Promise<void> {
  // npm re-raises the signal on itself once its script has exited; that is its normal Ctrl-C exit.
  expect([
    { code: 0, signal: null },
    { code: null, signal: 'SIGINT' },
  ]).toContainEqual(await proc.exit);
  expect(proc.stderr()).toContain('SIGINT: stopping the service and its chain');
  // npm exits after its script, which exits after anvil.
  expect(leftBehind(proc.pgid)).toEqual([]);
  await expectChainDown(String(info['rpcUrl']));
}

describe.skipIf(!posix)('npm run service', () => {
  it('prints one JSON line, serves, answers on its chain, and stops with it on SIGTERM', async () => {
    const proc = serviceProcess();
    const info = await proc.info;
    expect(info, proc.stderr()).not.toBeNull();
    expect(Object.keys(info!)).toEqual([
      'baseUrl',
      'publicUrl',
      'rpcUrl',
      'chainId',
      'asset',
      'payTo',
      'unitPriceUsd',
      'buyerKeys',
      'librarySecret',
    ]);
    expect(info!['chainId']).toBe(31337);
    expect(String(info!['baseUrl'])).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const shelf = (await (await fetch(`${String(info!['baseUrl'])}/api/intel/list`)).json()) as {
      entries: unknown[];
    };
    expect(shelf.entries.length).toBeGreaterThanOrEqual(50);
    const rpc = await fetch(String(info!['rpcUrl']), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect(((await rpc.json()) as { result: string }).result).toBe('0x7a69');
    // Its chain keeps Base's pace, a block every 2 s, so a demo left idle never falls behind the clock.
    await waitForLine(proc, /service ready at .*a block every 2 s/);
    const first = await blockNumber(String(info!['rpcUrl']));
    await expect.poll(() => blockNumber(String(info!['rpcUrl'])), { timeout: 8_000 }).toBeGreaterThan(first);
    expect(groupMembers(proc.pgid)).toEqual(expect.arrayContaining(['anvil', 'node']));
    proc.child.kill('SIGTERM');
    expect(await proc.exit).toEqual({ code: 0, signal: null });
    expect(proc.stderr()).toContain('SIGTERM: stopping the service and its chain');
    expect(leftBehind(proc.pgid)).toEqual([]);
    await expectChainDown(String(info!['rpcUrl']));
  });

  for (const signal of ['SIGINT', 'SIGHUP'] as const) {
    it(`stops with its chain on ${signal} to the service, leaving no process behind`, async () => {
      const proc = serviceProcess();
      const info = await proc.info;
      expect(info, proc.stderr()).not.toBeNull();
      expect(groupMembers(proc.pgid)).toEqual(expect.arrayContaining(['anvil', 'node']));
      proc.child.kill(signal);
      expect(await proc.exit).toEqual({ code: 0, signal: null });
      expect(proc.stderr()).toContain(`${signal}: stopping the service and its chain`);
      // The service exits only after anvil has: nothing of the group may be left.
      expect(leftBehind(proc.pgid)).toEqual([]);
      await expectChainDown(String(info!['rpcUrl']));
    });
  }

  it('stops through npm on Ctrl-C (SIGINT to the whole foreground group), anvil included', async () => {
    const proc = launch('npm', ['run', '--silent', 'service', '--', '--seed-size', '400:4000']);
    const info = await proc.info;
    expect(info, proc.stderr()).not.toBeNull();
    const shelf = (await (await fetch(`${String(info!['baseUrl'])}/api/intel/list`)).json()) as {
      entries: { reportCount: number }[];
    };
    expect(shelf.entries).toHaveLength(400);
    const reports = shelf.entries.reduce((sum, entry) => sum + entry.reportCount, 0);
    expect(reports).toBeGreaterThan(3600);
    expect(reports).toBeLessThan(4400);
    expect(groupMembers(proc.pgid)).toEqual(expect.arrayContaining(['anvil', 'node']));

    process.kill(-proc.pgid, 'SIGINT');
    await expectStoppedByCtrlC(proc, info!);
  });

  it('stops with its chain on Ctrl-C even when the service is slow to react (a loaded machine)', async () => {
    const proc = launch('npm', ['run', '--silent', 'service']);
    const info = await proc.info;
    expect(info, proc.stderr()).not.toBeNull();
    // The service gets no CPU for a moment while Ctrl-C reaches every process of the group, as on a busy
    // machine. A launcher between npm and the service that gives up on it after a few milliseconds and kills
    // it would leave anvil running with nobody to stop it.
    const service = chainOwner(proc.pgid);
    process.kill(service, 'SIGSTOP');
    process.kill(-proc.pgid, 'SIGINT');
    // Fault injection, not synchronisation: how long the service stays frozen.
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(service, 'SIGCONT');
    await expectStoppedByCtrlC(proc, info!);
  });

  it('still stops its chain when the signal comes while a large store is being seeded', async () => {
    const proc = serviceProcess(['--seed-size', '5000:50000']);
    await waitForLine(proc, /seeding 5000 handles/);
    expect(groupMembers(proc.pgid)).toContain('anvil');
    proc.child.kill('SIGTERM');
    // Without a handler yet, SIGTERM would kill node outright and orphan anvil; instead startup finishes
    // (a seed is one transaction) and everything stops.
    expect(await proc.exit).toEqual({ code: 0, signal: null });
    expect(proc.stderr()).toContain('SIGTERM: stopping the service and its chain');
    expect(leftBehind(proc.pgid)).toEqual([]);
  });

  it('refuses bad arguments with a clear message, before starting any chain', async () => {
    const badSize = serviceProcess(['--seed-size', 'lots']);
    const badPort = serviceProcess([], { PORT: '70000' });
    const badPrice = serviceProcess(['--unit-price', '0']);
    for (const proc of [badSize, badPort, badPrice]) expect((await proc.exit).code).toBe(1);
    expect(badSize.stderr()).toContain('--seed-size wants HANDLES or HANDLES:REPORTS');
    expect(badPort.stderr()).toContain('PORT must be 0-65535');
    expect(badPrice.stderr()).toContain('--unit-price must be a positive number');
    for (const proc of [badSize, badPort, badPrice]) expect(leftBehind(proc.pgid)).toEqual([]);
  });
});
