/**
 * The renderer's only way to core. Electron: the preload's `window.intelDesk`. Browser: the web host's
 * `POST /rpc/<method>` with the per-run token, which the page takes from the URL fragment once and then
 * keeps in sessionStorage (the fragment is cleared so it is not bookmarked or shared by accident). Core's
 * events come over the bridge's onEvent, or the web host's event stream (event-stream.ts).
 */
import { z } from 'zod';
import type {
  FolderExportView,
  RestorePickView,
  RpcClient,
  RpcInput,
  RpcMethod,
  RpcOutputs,
} from '../../shared/rpc';
import { BRIDGE_KEY, TOKEN_HEADER, type IntelDeskBridge } from '../../shared/bridge';
import { deskEventSchema, type DeskEvent } from '../../shared/events';
import { rpcErrorDetails, type DetailedErrorCode, type RpcErrorDetails } from '../../shared/rpc-errors';
import { openEventStream } from './event-stream';
import { errorCodeFrom, type DeskErrorCode } from '../../shared/error-codes';

const TOKEN_KEY = 'intelDesk.token';

declare global {
  interface Window {
    /** BRIDGE_KEY, set by Electron's preload (electron/preload.ts); absent in the browser. */
    intelDesk?: IntelDeskBridge;
  }
}

/**
 * An RPC error as the UI sees it: code to branch on, message to show, and for some codes typed details
 * (read them with rpcErrorDetails from src/shared/rpc-errors.ts).
 */
export class RpcCallError extends Error {
  constructor(
    readonly code: DeskErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RpcCallError';
  }
}

/** Core's events as the window hears them: checked, and with a word when the stream came back after a gap. */
export interface DeskEventFeed {
  /** `resumed` runs when a dropped stream is back: what changed meanwhile was not heard. */
  subscribe(listener: (event: DeskEvent) => void, resumed: () => void): () => void;
}

export interface DeskConnection {
  client: RpcClient;
  events: DeskEventFeed;
  mode: 'electron' | 'browser';
  hasToken: boolean;
}

const envelopeSchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  }),
]);

function unwrap(raw: unknown): unknown {
  const parsed = envelopeSchema.safeParse(raw);
  if (!parsed.success)
    throw new RpcCallError('bad_response', 'Intel Desk sent an answer this page cannot read.');
  if (!parsed.data.ok) {
    const { code, message, details } = parsed.data.error;
    throw new RpcCallError(errorCodeFrom(code), message, details);
  }
  return parsed.data.value;
}

export function readToken(): string | null {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, '', window.location.pathname + window.location.search);
    return match[1];
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

/** The web host's client; `base` is the host's address (the page's own by default). */
export function httpClient(token: string | null, base = './'): RpcClient {
  return {
    async call<M extends RpcMethod>(method: M, input: RpcInput<M>): Promise<RpcOutputs[M]> {
      let response: Response;
      try {
        response = await fetch(`${base}rpc/${method}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: token ?? '' },
          body: JSON.stringify(input),
        });
      } catch {
        throw new RpcCallError('host_unreachable', 'Intel Desk is not running any more. Start it again.');
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new RpcCallError('bad_response', `Intel Desk answered ${response.status} without JSON.`);
      }
      return unwrap(body) as RpcOutputs[M];
    },
  };
}

function bridgeClient(bridge: IntelDeskBridge): RpcClient {
  return {
    async call<M extends RpcMethod>(method: M, input: RpcInput<M>): Promise<RpcOutputs[M]> {
      return unwrap(await bridge.call(method, input)) as RpcOutputs[M];
    },
  };
}

/** An event this window cannot read (another version's) is left out rather than guessed at. */
function checked(listener: (event: DeskEvent) => void): (raw: unknown) => void {
  return (raw) => {
    const parsed = deskEventSchema.safeParse(raw);
    if (parsed.success) listener(parsed.data);
  };
}

export function createRpcClient(): DeskConnection {
  const bridge = window[BRIDGE_KEY];
  if (bridge) {
    return {
      client: bridgeClient(bridge),
      events: { subscribe: (listener) => bridge.onEvent(checked(listener)) },
      mode: 'electron',
      hasToken: true,
    };
  }
  const token = readToken();
  return {
    client: httpClient(token),
    events: {
      subscribe: (listener, resumed) =>
        openEventStream({ token: token ?? '', onEvent: checked(listener), onResumed: resumed }),
    },
    mode: 'browser',
    hasToken: token !== null,
  };
}

const pickSchema = z.object({ picked: z.string(), file: z.string(), outsideBackups: z.boolean() }).nullable();

/**
 * Electron's file dialog for a restore: main shows it and answers a one-time token for the chosen file (null
 * when cancelled), so this page never names a path. Null in the browser, which has no native dialog.
 */
export function backupFilePicker(): (() => Promise<RestorePickView | null>) | null {
  const bridge = window[BRIDGE_KEY];
  if (!bridge?.pickBackupFile) return null;
  return async () => {
    const value = pickSchema.safeParse(unwrap(await bridge.pickBackupFile?.()));
    if (!value.success)
      throw new RpcCallError('bad_response', 'Intel Desk sent an answer this page cannot read.');
    return value.data;
  };
}

const folderExportSchema = z.object({ dir: z.string(), reports: z.number(), handles: z.number() }).nullable();

/**
 * Electron's folder dialog for a Markdown export (decision 0049): main shows it and core writes there; the
 * page names a handle at most, never a path. Null when cancelled; no exporter in the browser.
 */
export function folderExporter(): ((handle?: string) => Promise<FolderExportView | null>) | null {
  const bridge = window[BRIDGE_KEY];
  if (!bridge?.exportFolder) return null;
  return async (handle) => {
    const value = folderExportSchema.safeParse(unwrap(await bridge.exportFolder?.(handle)));
    if (!value.success)
      throw new RpcCallError('bad_response', 'Intel Desk sent an answer this page cannot read.');
    return value.data;
  };
}

export function errorMessage(error: unknown): string {
  if (error instanceof RpcCallError) return error.message;
  return 'Something went wrong. Try again.';
}

export function errorCode(error: unknown): string | null {
  return error instanceof RpcCallError ? error.code : null;
}

/** The typed details of a refusal with this code, when the error is one. */
export function refusalDetails<C extends DetailedErrorCode>(
  error: unknown,
  code: C,
): RpcErrorDetails[C] | null {
  return error instanceof RpcCallError ? rpcErrorDetails(error, code) : null;
}
