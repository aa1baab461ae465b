/**
 * The web host: the renderer and the RPC contract over HTTP, for browser mode. Loopback only. Every RPC call
 * needs the per-run token (the page reads it from the URL fragment, which never reaches a server log), a
 * Host header naming this very listener (no DNS rebinding), no foreign Origin (no cross-site requests) and a
 * JSON body (no form posts). Core's events go to the page as server-sent events on GET /events, with the
 * same token header (the page reads the stream with fetch, as EventSource cannot send a header).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { RpcHandlers } from '../shared/rpc';
import { TOKEN_HEADER } from '../shared/bridge';
import { EVENTS_PATH, type DeskEvent, type DeskEventSource } from '../shared/events';
import { securityHeaders, withPagePolicy } from './csp';
import { DEFAULT_WALLETCONNECT_RELAY_URL } from '../shared/walletconnect-relay';
import { dispatch } from './dispatch';
import { readStatic } from './static-files';

/** A comment line this often keeps an idle stream open through anything that times connections out. */
const EVENT_HEARTBEAT_MS = 15_000;
/** How long the page waits before reconnecting a dropped stream (the SSE `retry` field). */
const EVENT_RETRY_MS = 1_000;
const MAX_BODY_BYTES = 1_000_000;

/** Core in this thread (its handlers), or core in a worker that validates and answers as JSON itself. */
export type WebHostCore =
  { handlers: RpcHandlers } | { dispatchJson(method: string, input: unknown): Promise<Uint8Array> };

export type WebHostOptions = WebHostCore & {
  /** Core's events, streamed to the page; without it the stream stays open and says nothing. */
  events?: DeskEventSource;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  port?: number;
  token?: string;
  log?: (error: unknown) => void;
  /** The WalletConnect relay the page may connect to (an origin, already validated); default WalletConnect's. */
  walletConnectRelayUrl?: string;
};

export interface WebHost {
  port: number;
  token: string;
  /** The address to open, token in the fragment. */
  url: string;
  origin: string;
  close(): Promise<void>;
}

class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new HttpRefusal(413, 'too_large', 'That request is too large.');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: string | Buffer, type: string, extra = {}) {
  response.writeHead(status, { 'Content-Type': type, ...extra });
  response.end(body);
}

const JSON_TYPE = 'application/json; charset=utf-8';
const NO_STORE = { 'Cache-Control': 'no-store' };

function sendJson(response: ServerResponse, status: number, value: unknown) {
  send(response, status, JSON.stringify(value), JSON_TYPE, NO_STORE);
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const rendererDir = path.resolve(options.rendererDir);
  const log = options.log ?? ((error: unknown) => console.error(error));
  const relayUrl = options.walletConnectRelayUrl ?? DEFAULT_WALLETCONNECT_RELAY_URL;
  const headers = securityHeaders(relayUrl);
  let allowedHosts: Set<string> = new Set();
  let allowedOrigins: Set<string> = new Set();

  function guard(request: IncomingMessage): void {
    const host = request.headers.host ?? '';
    if (!allowedHosts.has(host.toLowerCase())) {
      throw new HttpRefusal(421, 'bad_host', 'This address is not served here.');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
      throw new HttpRefusal(403, 'bad_origin', 'Requests from other sites are refused.');
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new HttpRefusal(403, 'bad_origin', 'Requests from other sites are refused.');
    }
  }

  function checkToken(request: IncomingMessage): void {
    const given = request.headers[TOKEN_HEADER];
    if (!sameToken(typeof given === 'string' ? given : undefined, token)) {
      throw new HttpRefusal(
        401,
        'bad_token',
        'This page is not the one Intel Desk opened; use the printed link.',
      );
    }
  }

  function eventStream(request: IncomingMessage, response: ServerResponse) {
    if (request.method !== 'GET') throw new HttpRefusal(405, 'method', 'Use GET.');
    checkToken(request);
    response.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream; charset=utf-8',
      ...NO_STORE,
      Connection: 'keep-alive',
    });
    response.write(`retry: ${EVENT_RETRY_MS}\n\n`);
    const write = (event: DeskEvent) => {
      response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    const stop = options.events?.on(write);
    const heartbeat = setInterval(() => response.write(': still here\n\n'), EVENT_HEARTBEAT_MS);
    heartbeat.unref();
    response.on('close', () => {
      clearInterval(heartbeat);
      stop?.();
    });
  }

  /** The method named in the path, once the caller is known to be the page: a bad %-escape is the caller's error. */
  function methodOf(encoded: string): string {
    try {
      return decodeURIComponent(encoded);
    } catch {
      throw new HttpRefusal(400, 'bad_method', 'The method name in the address is not valid.');
    }
  }

  async function rpc(request: IncomingMessage, response: ServerResponse, encoded: string) {
    if (request.method !== 'POST') throw new HttpRefusal(405, 'method', 'Use POST.');
    checkToken(request);
    const method = methodOf(encoded);
    if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
      throw new HttpRefusal(415, 'json_only', 'Send JSON.');
    }
    let input: unknown;
    try {
      const text = await readBody(request);
      input = text.length === 0 ? {} : JSON.parse(text);
    } catch (error) {
      if (error instanceof HttpRefusal) throw error;
      throw new HttpRefusal(400, 'bad_json', 'The request body is not JSON.');
    }
    if ('dispatchJson' in options) {
      const bytes = await options.dispatchJson(method, input);
      send(response, 200, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), JSON_TYPE, NO_STORE);
    } else sendJson(response, 200, await dispatch(options.handlers, method, input, log));
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    guard(request);
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === EVENTS_PATH) {
      eventStream(request, response);
      return;
    }
    if (url.pathname.startsWith('/rpc/')) {
      await rpc(request, response, url.pathname.slice('/rpc/'.length));
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpRefusal(405, 'method', 'Only GET is served here.');
    }
    const file = await readStatic(rendererDir, url.pathname);
    if (!file) throw new HttpRefusal(404, 'not_found', 'Not found.');
    const body = file.type.startsWith('text/html') ? withPagePolicy(file.body, relayUrl) : file.body;
    send(response, 200, request.method === 'HEAD' ? '' : body, file.type, {
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  }

  const server = createServer((request, response) => {
    // Every response carries the security headers, set here so each send above adds only its own.
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    handle(request, response).catch((error: unknown) => {
      if (error instanceof HttpRefusal) {
        sendJson(response, error.status, { ok: false, error: { code: error.code, message: error.message } });
        return;
      }
      log(error);
      if (!response.headersSent) {
        sendJson(response, 500, { ok: false, error: { code: 'internal', message: 'Something went wrong.' } });
      } else response.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    token,
    origin,
    url: `${origin}/#token=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
