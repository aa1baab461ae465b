/**
 * The desk (core and web host, as in browser mode) in its own Node process, so its RSS is its own and its
 * work does not share an event loop with the Playwright driver. desk-process.ts is the child's side.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface DeskProcessOptions {
  dataDir: string;
  serviceUrl: string;
  rpcUrl: string;
  demoAsset: `0x${string}`;
  rendererDir: string;
}

export type ToDesk = { kind: 'memory' } | { kind: 'close' };
export type FromDesk =
  | { kind: 'ready'; url: string }
  | { kind: 'memory'; rss: number; heapUsed: number; maxRss: number }
  | { kind: 'failed'; message: string };

export interface DeskMemory {
  rss: number;
  heapUsed: number;
  /** Peak RSS of the process so far. */
  maxRss: number;
}

export interface DeskChild {
  url: string;
  pid: number;
  /** RSS and V8 heap of the desk process, after a forced garbage collection. */
  memory(): Promise<DeskMemory>;
  close(): Promise<void>;
}

const STEP_TIMEOUT_MS = 60_000;

function nextMessage(child: ChildProcess, what: string): Promise<FromDesk> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`desk process: no ${what} within ${STEP_TIMEOUT_MS} ms`)),
      STEP_TIMEOUT_MS,
    );
    const onMessage = (message: FromDesk) => finish(null, message);
    const onExit = (code: number | null) => finish(new Error(`desk process exited (${code}) before ${what}`));
    function finish(error: Error | null, message?: FromDesk) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else if (message?.kind === 'failed') reject(new Error(`desk process: ${message.message}`));
      else resolve(message!);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export async function startDeskChild(options: DeskProcessOptions): Promise<DeskChild> {
  const child = fork(path.join(import.meta.dirname, 'desk-process.ts'), [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const close = async () => {
    if (child.connected) child.send({ kind: 'close' } satisfies ToDesk);
    if (!(await exited(child, 15_000))) {
      child.kill('SIGKILL');
      await exited(child, 5_000);
    }
  };
  try {
    const ready = await nextMessage(child, 'ready message');
    if (ready.kind !== 'ready') throw new Error(`desk process sent ${ready.kind} before ready`);
    return {
      url: ready.url,
      pid: child.pid ?? -1,
      memory: async () => {
        const answer = nextMessage(child, 'memory answer');
        child.send({ kind: 'memory' } satisfies ToDesk);
        const message = await answer;
        if (message.kind !== 'memory') throw new Error(`desk process sent ${message.kind}, not memory`);
        return { rss: message.rss, heapUsed: message.heapUsed, maxRss: message.maxRss };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
