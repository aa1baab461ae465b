/**
 * Core in a worker thread, for both shells (Electron's main process and the web host): the same handlers
 * and dispatch as core in-process, as messages. Whatever core pushes (purchase steps, errors to log) and the
 * keychain it asks (SecretVault) cross as messages too; DeskErrors arrive with their code, kind and details.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, Worker, type TransferListItem } from 'node:worker_threads';
import { DeskError } from '../core/base/errors';
import type { SecretVault } from '../core';
import { rpcInputs, type RpcHandlers } from '../shared/rpc';
import type { DeskEvent, DeskEventSource } from '../shared/events';
import {
  fromWireError,
  type FromWorker,
  type ThreadCoreOptions,
  type ToWorker,
  type WorkerStart,
} from './core-protocol';
import { newVaultSignal, serveVault } from './vault-bridge';

export interface CoreThreadOptions {
  core: ThreadCoreOptions;
  /** Served from this thread: Electron's safeStorage cannot be called from a worker. */
  vault?: SecretVault;
  /** Errors core did not expect (not DeskErrors), with the worker's stack. */
  log?: (error: unknown) => void;
  /** The worker's module; by default core-worker.ts (under tsx or vitest) or core-worker.js (built). */
  entry?: string;
  /** How long a close may take before the worker is terminated (default 10 s). */
  closeTimeoutMs?: number;
}

export interface CoreThread {
  /** Typed calls for the shells themselves and tests: values and DeskErrors as in-process, input checked by core. */
  handlers: RpcHandlers;
  /** Core's events, as the worker emits them. */
  events: DeskEventSource;
  /**
   * An untrusted call from the page, validated and run in the worker: the DispatchResult as UTF-8 JSON,
   * ready to send without this thread parsing it.
   */
  dispatchJson(method: string, input: unknown): Promise<Uint8Array>;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** Under tsx or vitest this module is TypeScript and so is the worker; in the build it is core-worker.js. */
/** tsx's ESM register API (its `require` entry cannot be imported), from tsx's own exports map. */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import?: { default?: string } } | string>;
  };
  const entry = exports['./esm/api'];
  const file = typeof entry === 'object' ? entry.import?.default : undefined;
  if (!file) throw new Error(`tsx at ${path.dirname(manifest)} has no ESM register API`);
  return path.join(path.dirname(manifest), file);
}

function spawnWorker(entry: string | undefined, start: WorkerStart, transfer: TransferListItem[]): Worker {
  const file =
    entry ?? path.join(here, import.meta.url.endsWith('.ts') ? 'core-worker.ts' : 'core-worker.js');
  if (!existsSync(file)) {
    throw new DeskError(
      'core_worker_missing',
      `Intel Desk's core worker is missing at ${file}; rebuild the app.`,
    );
  }
  if (!file.endsWith('.ts')) return new Worker(file, { workerData: start, transferList: transfer });
  // A worker does not inherit tsx's loader from `--import` (Node 20), so the worker registers it first.
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(file).href)}); });`;
  return new Worker(boot, { eval: true, workerData: start, transferList: transfer });
}

type Request = ToWorker extends infer T ? (T extends { id: number } ? Omit<T, 'id'> : never) : never;

const stopped = () =>
  new DeskError(
    'core_stopped',
    'Intel Desk’s core has stopped, so nothing more can be done in this window; restart Intel Desk.',
    'internal',
  );

export async function startCoreThread(options: CoreThreadOptions): Promise<CoreThread> {
  const log = options.log ?? ((error: unknown) => console.error(error));
  let start: WorkerStart = { core: options.core, vault: null };
  const transfer: TransferListItem[] = [];
  if (options.vault) {
    const channel = new MessageChannel();
    const signal = newVaultSignal();
    serveVault(options.vault, channel.port1, signal);
    // The host end must not keep the process alive once the worker is gone.
    channel.port1.unref();
    start = { ...start, vault: { port: channel.port2, signal } };
    transfer.push(channel.port2);
  }
  const worker = spawnWorker(options.entry, start, transfer);
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const listeners = new Set<(event: DeskEvent) => void>();
  let nextId = 1;
  let exited: Error | null = null;
  let startup: { resolve(): void; reject(error: Error): void } | null = null;
  const started = new Promise<void>((resolve, reject) => {
    startup = { resolve, reject };
  });

  worker.on('message', (message: FromWorker) => {
    if (message.type === 'ready') startup?.resolve();
    else if (message.type === 'failed') startup?.reject(fromWireError(message.error));
    else if (message.type === 'event') {
      for (const listener of listeners) listener(message.event);
    } else if (message.type === 'log') log(fromWireError(message.error));
    else {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.ok) waiting?.resolve(message.value);
      else waiting?.reject(fromWireError(message.error));
    }
  });
  worker.on('error', (error) => log(error));
  worker.on('exit', () => {
    exited = stopped();
    startup?.reject(exited);
    for (const waiting of pending.values()) waiting.reject(exited);
    pending.clear();
  });

  const ask = (message: Request) =>
    new Promise<unknown>((resolve, reject) => {
      if (exited) {
        reject(exited);
        return;
      }
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id } as ToWorker);
    });

  try {
    await started;
  } catch (error) {
    await worker.terminate();
    throw error;
  }

  const handlers = Object.fromEntries(
    Object.keys(rpcInputs).map((method) => [
      method,
      (input: unknown) => ask({ type: 'call', method, input, answer: 'value' }),
    ]),
  ) as unknown as RpcHandlers;

  let closing: Promise<void> | null = null;
  return {
    handlers,
    events: {
      on: (listener) => {
        listeners.add(listener);
        return () => {
          listeners.delete(listener);
        };
      },
    },
    dispatchJson: async (method, input) =>
      (await ask({ type: 'call', method, input, answer: 'json' })) as Uint8Array,
    close: () => {
      closing ??= (async () => {
        if (exited) return;
        const timeout = setTimeout(() => void worker.terminate(), options.closeTimeoutMs ?? 10_000);
        try {
          await ask({ type: 'close' });
        } catch (error) {
          if (!(error instanceof DeskError && error.code === 'core_stopped')) log(error);
        } finally {
          clearTimeout(timeout);
          await worker.terminate();
        }
      })();
      return closing;
    },
  };
}
