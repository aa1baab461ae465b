/**
 * mcp.log in the data folder: one JSON line per MCP request, written when it is answered (method, tool or
 * resource, its arguments, how it ended, how long it took). Nothing secret reaches this server over MCP, and
 * nothing secret is written: the arguments are the assistant's, keys and the library secret never pass here.
 * A line is cut to a bounded size, and the file is rotated by size so it never grows without bound.
 */
import { appendFileSync, existsSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const MAX_BYTES = 2_000_000;
const MAX_ARGUMENTS = 2_000;

export interface RequestLog {
  readonly file: string;
  write(entry: Record<string, unknown>): void;
}

export function openRequestLog(dataDir: string, now: () => number = Date.now): RequestLog {
  const file = path.join(dataDir, 'mcp.log');
  let size = existsSync(file) ? statSync(file).size : 0;
  return {
    file,
    write(entry) {
      const line = `${JSON.stringify({ at: new Date(now()).toISOString(), ...entry })}\n`;
      try {
        if (size > 0 && size + line.length > MAX_BYTES) {
          renameSync(file, `${file}.1`);
          size = 0;
        }
        appendFileSync(file, line, { mode: 0o600 });
        size += Buffer.byteLength(line);
      } catch (error) {
        // A full disk must not stop the server; stderr is the client's log, never the protocol.
        process.stderr.write(`intel-desk mcp: writing ${file} failed: ${String(error)}\n`);
      }
    },
  };
}

function clipped(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  return text.length <= MAX_ARGUMENTS
    ? value
    : `${text.slice(0, MAX_ARGUMENTS)}… (${text.length} characters)`;
}

interface Pending {
  method: string;
  target?: unknown;
  arguments?: unknown;
  started: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface InFlight {
  /** Resolves once every request received so far has been answered. */
  answered(): Promise<void>;
}

/**
 * Logs every request that arrives on the transport and how it was answered, whichever handler answers it
 * (the SDK checks a tool's arguments before any handler of ours runs, and that refusal is logged too), and
 * counts those not answered yet, so a client that closes stdin right after its last request still gets the
 * answer. Call it after the server connected, so the server's own handlers are the ones wrapped.
 */
export function logRequests(transport: Transport, log: RequestLog, now: () => number = Date.now): InFlight {
  const pending = new Map<string | number, Pending>();
  let waiting: (() => void)[] = [];
  const receive = transport.onmessage;
  const send = transport.send.bind(transport);
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    if ('method' in message && 'id' in message) {
      const params = isObject(message.params) ? message.params : {};
      pending.set(message.id, {
        method: message.method,
        target: params['name'] ?? params['uri'],
        arguments: clipped(params['arguments']),
        started: now(),
      });
    } else if ('method' in message) {
      log.write({ notification: message.method });
    }
    receive?.(message, extra);
  };
  transport.send = async (message, options) => {
    let answered = false;
    if (('result' in message || 'error' in message) && 'id' in message && message.id !== undefined) {
      const request = pending.get(message.id);
      answered = pending.delete(message.id);
      if (request) {
        const result = 'result' in message && isObject(message.result) ? message.result : null;
        const failed =
          'error' in message
            ? { error: message.error.message }
            : result?.['isError'] === true
              ? { error: toolErrorText(result) }
              : {};
        log.write({
          method: request.method,
          ...(request.target !== undefined ? { target: request.target } : {}),
          ...(request.arguments !== undefined ? { arguments: request.arguments } : {}),
          ok: Object.keys(failed).length === 0,
          ...failed,
          ms: now() - request.started,
        });
      }
    } else if ('method' in message && 'id' in message) {
      // A request of ours to the client: the elicitation that asks the person to approve a purchase.
      log.write({ sent: message.method });
    }
    await send(message, options);
    // Only once the last answer is written: whoever waits may close the process.
    if (answered && pending.size === 0) {
      const done = waiting;
      waiting = [];
      for (const resolve of done) resolve();
    }
  };
  return {
    answered: () =>
      pending.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)),
  };
}

function toolErrorText(result: Record<string, unknown>): string {
  const content = Array.isArray(result['content']) ? (result['content'] as unknown[]) : [];
  const first = content[0];
  const text = isObject(first) && typeof first['text'] === 'string' ? first['text'] : '';
  return text.slice(0, 500);
}
