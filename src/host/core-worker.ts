/**
 * Core's thread: SQLite, key derivation, PDF rendering and the service client run here, so the thread
 * that serves the window (Electron's main, or the web host) never waits on them. Started by core-thread.ts;
 * under electron-vite it is its own entry (out/main/core-worker.js).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createDeskCore, DeskError, type DeskCore } from '../core';
import { offsetClock } from '../core/payments/clock-offset';
import { dispatch, isRpcMethod } from './dispatch';
import { toWireError, type FromWorker, type ToWorker, type WorkerStart } from './core-protocol';
import { vaultOverPort } from './vault-bridge';

function parent(): NonNullable<typeof parentPort> {
  if (!parentPort)
    throw new Error('core-worker.ts runs only as a worker thread (see src/host/core-thread.ts)');
  return parentPort;
}
const port = parent();

const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const start = workerData as WorkerStart;
const encoder = new TextEncoder();

async function answer(core: DeskCore, message: Exclude<ToWorker, { type: 'close' }>): Promise<void> {
  try {
    if (message.answer === 'json') {
      const result = await dispatch(core.handlers, message.method, message.input, (error) =>
        send({ type: 'log', error: toWireError(error) }),
      );
      // Bytes move to the host without a copy, and a host that forwards them never parses them.
      const bytes = encoder.encode(JSON.stringify(result));
      send({ type: 'answer', id: message.id, ok: true, value: bytes }, [bytes.buffer as ArrayBuffer]);
      return;
    }
    // The same door as dispatch: only the contract's methods, each checking its own input.
    if (!isRpcMethod(message.method))
      throw new DeskError('unknown_method', `Intel Desk has no action "${message.method}".`, 'usage');
    const handler = core.handlers[message.method] as (input: unknown) => Promise<unknown>;
    const value = await handler(message.input);
    send({ type: 'answer', id: message.id, ok: true, value });
  } catch (error) {
    send({ type: 'answer', id: message.id, ok: false, error: toWireError(error) });
  }
}

async function main(): Promise<void> {
  let core: DeskCore;
  try {
    const { clockOffsetMs, ...options } = start.core;
    core = await createDeskCore({
      ...options,
      ...(clockOffsetMs ? { now: offsetClock(clockOffsetMs) } : {}),
      ...(start.vault ? { vault: vaultOverPort(start.vault.port, start.vault.signal) } : {}),
      onEvent: (event) => send({ type: 'event', event }),
    });
  } catch (error) {
    send({ type: 'failed', error: toWireError(error) });
    start.vault?.port.close();
    port.close();
    return;
  }
  port.on('message', (message: ToWorker) => {
    if (message.type !== 'close') {
      void answer(core, message);
      return;
    }
    core
      .close()
      .then(() => send({ type: 'answer', id: message.id, ok: true, value: null }))
      .catch((error: unknown) =>
        send({ type: 'answer', id: message.id, ok: false, error: toWireError(error) }),
      )
      .finally(() => {
        start.vault?.port.close();
        port.close();
      });
  });
  send({ type: 'ready' });
}

void main();
