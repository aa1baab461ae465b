/** Runs a local anvil chain as a child process and stops it with its parent. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { DemoPackageMissing, resolveDemoPackage } from './demo-packages';

export interface Anvil {
  rpcUrl: string;
  pid: number;
  stop(): Promise<void>;
}

const archNames: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };

export function anvilBinaryPath(): string {
  // The platform's own binary package is an optional dependency of @foundry-rs/anvil: name the one that is
  // missing, the wrapper first (a production install has neither).
  resolveDemoPackage('@foundry-rs/anvil');
  const arch = archNames[process.arch];
  const packageName = `@foundry-rs/anvil-${process.platform}-${arch ?? process.arch}`;
  let packageDir: string;
  try {
    packageDir = path.dirname(resolveDemoPackage(packageName));
  } catch (error) {
    if (!(error instanceof DemoPackageMissing)) throw error;
    throw new Error(
      `anvil is not installed for ${process.platform}/${process.arch} (${packageName}); run npm install`,
    );
  }
  const binary = path.join(packageDir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!existsSync(binary)) throw new Error(`anvil binary missing at ${binary}; run npm install`);
  return binary;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A parent that exits without calling stop() must not leave a chain behind.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

export interface AnvilOptions {
  chainId?: number;
  accounts?: number;
  balanceEth?: number;
  /**
   * Also make a block every so many seconds, with or without transactions (a transaction still gets its own
   * block at once). Without it the chain makes blocks only for transactions.
   */
  blockTimeSeconds?: number;
  /**
   * A file the chain is loaded from when it exists and kept in (every ten seconds, and on a stop), so a chain
   * stopped and started again holds the same blocks, transactions and balances. Every block is in it (about
   * 1.6 kB each, 3 MB an hour at a block every 2 s) and each save writes it whole: ten seconds keeps that
   * cheap, and only a process killed outright loses the seconds since the last save.
   */
  statePath?: string;
}

/** Block timestamps follow the wall clock. */
export function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--chain-id',
    String(options.chainId ?? 31337),
    '--accounts',
    String(options.accounts ?? 10),
    '--balance',
    String(options.balanceEth ?? 10000),
    ...(options.blockTimeSeconds ? ['--block-time', String(options.blockTimeSeconds), '--mixed-mining'] : []),
    ...(options.statePath ? ['--state', options.statePath, '--state-interval', '10'] : []),
  ];
  const child = spawn(anvilBinaryPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  installExitHook();

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(() => running.delete(child));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };

  return new Promise<Anvil>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /Listening on ([0-9.]+):(\d+)/.exec(output);
      if (match) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve({ rpcUrl: `http://${match[1]}:${match[2]}`, pid: child.pid ?? -1, stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('error', (error) => reject(new Error(`anvil failed to start: ${error.message}`)));
    child.once('exit', (code, signal) => {
      reject(
        new Error(`anvil exited before listening (code ${code}, signal ${signal}):\n${output.slice(-2000)}`),
      );
    });
  });
}
