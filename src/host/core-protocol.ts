/**
 * The messages between a host thread and core's worker (core-thread.ts ↔ core-worker.ts). Both ends are
 * this codebase in one process, so the shapes are TypeScript types; what arrives from outside (RPC input)
 * is still checked by core's door (src/core/handlers/door.ts) inside the worker, whichever answer form is asked for.
 */
import type { MessagePort } from 'node:worker_threads';
import { DeskError, type DeskErrorKind } from '../core/base/errors';
import type { DeskCoreOptions } from '../core';
import type { DeskEvent } from '../shared/events';
import { errorCodeFrom } from '../shared/error-codes';

/**
 * The options of core that can cross a thread: no functions (the vault and core's events go as messages). The
 * clock crosses as an offset from the real one (a testing aid: INTEL_DESK_CLOCK_OFFSET_MS, src/core/payments/clock-offset.ts).
 */
export type ThreadCoreOptions = Omit<DeskCoreOptions, 'vault' | 'fetch' | 'onEvent' | 'now'> & {
  clockOffsetMs?: number;
};

export interface WorkerStart {
  core: ThreadCoreOptions;
  /** Present when the host holds a SecretVault (Electron's safeStorage lives on the main thread only). */
  vault: { port: MessagePort; signal: Int32Array } | null;
}

/** An error as it crosses the thread: a DeskError keeps code, kind and details; anything else its stack. */
export type WireError =
  | { desk: true; code: string; message: string; kind: DeskErrorKind; details: Record<string, unknown> }
  | { desk: false; name: string; message: string; stack: string | undefined };

/**
 * How a call's answer comes back: 'json', the DispatchResult as UTF-8 JSON bytes for the page; 'value', the
 * value structured-cloned (a DeskError as a WireError) for the host's own typed calls.
 */
export type AnswerForm = 'json' | 'value';

export type ToWorker =
  | { type: 'call'; id: number; method: string; input: unknown; answer: AnswerForm }
  | { type: 'close'; id: number };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; error: WireError }
  | { type: 'answer'; id: number; ok: true; value: unknown }
  | { type: 'answer'; id: number; ok: false; error: WireError }
  | { type: 'event'; event: DeskEvent }
  | { type: 'log'; error: WireError };

export type VaultRequest =
  { op: 'isAvailable' } | { op: 'encrypt'; plain: string } | { op: 'decrypt'; data: Uint8Array };

export type VaultReply = { ok: true; value: boolean | string | Uint8Array } | { ok: false; message: string };

/** Details that cannot be structured-cloned (a function, a class instance with a socket) are dropped. */
function cloneableDetails(details: Record<string, unknown>): Record<string, unknown> {
  try {
    structuredClone(details);
    return details;
  } catch {
    return {};
  }
}

export function toWireError(error: unknown): WireError {
  if (error instanceof DeskError) {
    return {
      desk: true,
      code: error.code,
      message: error.message,
      kind: error.kind,
      details: cloneableDetails(error.details),
    };
  }
  if (error instanceof Error) {
    return { desk: false, name: error.name, message: error.message, stack: error.stack };
  }
  return { desk: false, name: 'Error', message: String(error), stack: undefined };
}

export function fromWireError(wire: WireError): Error {
  if (wire.desk) return new DeskError(errorCodeFrom(wire.code), wire.message, wire.kind, wire.details);
  const error = new Error(wire.message);
  error.name = wire.name;
  // The worker's stack is the one that says where it happened; the log shows it.
  if (wire.stack) error.stack = wire.stack;
  return error;
}
