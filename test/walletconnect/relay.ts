/**
 * A WalletConnect relay for tests, on loopback: the relay JSON-RPC the 2.x clients speak (irn_subscribe,
 * irn_publish, irn_subscription to subscribers, the batch forms, irn_batchFetchMessages), routed by topic. A
 * message is kept until its ttl passes and given to every client subscribed to its topic that has not had it,
 * so a message published before the other side subscribes still arrives (the pairing's first message always
 * is). The session proposal and its approval come as wc_proposeSession and wc_approveSession, which publish and
 * also subscribe their sender (the proposer to the pairing topic, the wallet to the session topic). Auth is not checked: a client's id is read from its JWT only to tell clients apart across reconnects.
 * Every method called is counted, so a test can say which ones the clients needed. Like the real relay it pings
 * each socket: sign-client in Node drops a connection that hears no ping for 35 s and dials again.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** The part of the `ws` package used here (it is in node_modules for WalletConnect; it has no types there). */
interface RelaySocket {
  readyState: number;
  send(data: string): void;
  ping(): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: () => void): void;
}
interface RelaySocketServer {
  clients: Set<RelaySocket>;
  on(event: 'connection', listener: (socket: RelaySocket, request: { url?: string }) => void): void;
  close(): void;
}
interface WsModule {
  WebSocketServer: new (options: { server: Server }) => RelaySocketServer;
}
const { WebSocketServer } = createRequire(import.meta.url)('ws') as WsModule;

const OPEN = 1;

const requestSchema = z.object({
  id: z.union([z.number(), z.string()]),
  jsonrpc: z.literal('2.0'),
  method: z.string(),
  params: z.unknown().optional(),
});
const publishSchema = z.object({
  topic: z.string().min(1),
  message: z.string().min(1),
  ttl: z.number().int().positive(),
  tag: z.number().int().optional(),
  prompt: z.boolean().optional(),
  attestation: z.string().optional(),
});
const topicSchema = z.object({ topic: z.string().min(1) });
const topicsSchema = z.object({ topics: z.array(z.string().min(1)) });
const unsubscribeSchema = z.object({ topic: z.string().min(1), id: z.string().optional() });
const batchUnsubscribeSchema = z.object({ subscriptions: z.array(unsubscribeSchema) });
const batchPublishSchema = z.object({ messages: z.array(publishSchema) });
/** The session proposal, published by the dApp on the pairing topic in one call (sign-client 2.2x). */
const proposeSessionSchema = z.object({
  pairingTopic: z.string().min(1),
  sessionProposal: z.string().min(1),
  ttl: z.number().int().positive(),
  tag: z.number().int().optional(),
});
/** The wallet's approval: its answer on the pairing topic and the settlement on the new session topic. */
const approveSessionSchema = z.object({
  sessionTopic: z.string().min(1),
  pairingTopic: z.string().min(1),
  sessionProposalResponse: z.string().min(1),
  sessionSettlementRequest: z.string().min(1),
  ttl: z.number().int().positive(),
});
/** The tags sign-client gives a proposal's answer and a settlement when it publishes them itself. */
const TAG_PROPOSAL_RESPONSE = 1101;
const TAG_SESSION_SETTLE = 1102;
const jwtPayloadSchema = z.object({ iss: z.string().min(1) });

interface StoredMessage {
  topic: string;
  message: string;
  publishedAt: number;
  expiresAt: number;
  tag: number;
  /** The client that published it, which does not get it back. */
  from: string;
  /** Clients it was given to. */
  deliveredTo: Set<string>;
}

interface Connection {
  socket: RelaySocket;
  clientId: string;
  topics: Set<string>;
}

export interface PublishedMessage {
  topic: string;
  tag: number;
  from: string;
}

export interface TestRelayOptions {
  /** How often each socket is pinged; 10 s unless a test wants to see it sooner. */
  pingEveryMs?: number;
}

export interface TestRelay {
  /** ws://127.0.0.1:<port>, what a client is given as its relay URL. */
  url: string;
  port: number;
  /** How many times each relay method was called, by name. */
  calls: Map<string, number>;
  /** Every publish, in order: its topic, its tag (what kind of WalletConnect message it is) and its sender. */
  published: PublishedMessage[];
  /** The clients connected now, by the id in their auth JWT. */
  connectedClients(): string[];
  /** Sockets opened since the relay started. */
  connections(): number;
  /** Resolves once `condition` holds, checked after each method the relay answers (and now). */
  until(condition: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Closes every socket and stops listening; the stored messages are kept for restart(). */
  drop(): Promise<void>;
  /** Listens again on the same port, as a relay that came back. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** The client's id from its auth JWT's issuer (a did:key), unverified: this relay ignores auth. */
function clientIdOf(url: string | undefined, fallback: string): string {
  const token = new URL(url ?? '/', 'ws://relay').searchParams.get('auth');
  const payload = token?.split('.')[1];
  if (!payload) return fallback;
  try {
    const parsed = jwtPayloadSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data.iss : fallback;
  } catch {
    return fallback;
  }
}

export async function startTestRelay(options: TestRelayOptions = {}): Promise<TestRelay> {
  const calls = new Map<string, number>();
  const published: PublishedMessage[] = [];
  const messages: StoredMessage[] = [];
  const live = new Set<Connection>();
  const waiters = new Set<() => void>();
  let opened = 0;
  let nextId = Date.now() * 1000;
  let server: Server | null = null;
  let sockets: RelaySocketServer | null = null;
  let port = 0;
  let pinger: NodeJS.Timeout | undefined;

  const send = (connection: Connection, value: unknown) => {
    if (connection.socket.readyState === OPEN) connection.socket.send(JSON.stringify(value));
  };

  const subscriptionId = (clientId: string, topic: string) =>
    createHash('sha256').update(`${topic}${clientId}`).digest('hex');

  function prune(now: number): void {
    for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.expiresAt <= now) messages.splice(i, 1);
  }

  /** Gives `connection` every stored message of `topic` its client has not had. */
  function deliverStored(connection: Connection, topic: string): void {
    prune(Date.now());
    for (const stored of messages) {
      if (stored.topic !== topic || stored.from === connection.clientId) continue;
      if (stored.deliveredTo.has(connection.clientId)) continue;
      stored.deliveredTo.add(connection.clientId);
      send(connection, {
        id: nextId++,
        jsonrpc: '2.0',
        method: 'irn_subscription',
        params: {
          id: subscriptionId(connection.clientId, topic),
          data: { topic, message: stored.message, publishedAt: stored.publishedAt, tag: stored.tag },
        },
      });
    }
  }

  function publish(connection: Connection, params: z.infer<typeof publishSchema>): void {
    const now = Date.now();
    messages.push({
      topic: params.topic,
      message: params.message,
      publishedAt: now,
      expiresAt: now + params.ttl * 1000,
      tag: params.tag ?? 0,
      from: connection.clientId,
      deliveredTo: new Set(),
    });
    published.push({ topic: params.topic, tag: params.tag ?? 0, from: connection.clientId });
    for (const other of live) if (other.topics.has(params.topic)) deliverStored(other, params.topic);
  }

  function subscribe(connection: Connection, topic: string): string {
    connection.topics.add(topic);
    // Given after the answer to the subscribe, as the relay does: the client knows the subscription by then.
    setImmediate(() => deliverStored(connection, topic));
    return subscriptionId(connection.clientId, topic);
  }

  /** Takes (and marks as had) the stored messages of `topics` this client has not had. */
  function fetchStored(connection: Connection, topics: string[]) {
    prune(Date.now());
    const found = messages.filter(
      (m) =>
        topics.includes(m.topic) && m.from !== connection.clientId && !m.deliveredTo.has(connection.clientId),
    );
    for (const m of found) m.deliveredTo.add(connection.clientId);
    return {
      messages: found.map((m) => ({ topic: m.topic, message: m.message, publishedAt: m.publishedAt })),
      hasMore: false,
    };
  }

  function answer(connection: Connection, method: string, params: unknown): unknown {
    switch (method) {
      case 'irn_publish':
        publish(connection, publishSchema.parse(params));
        return true;
      case 'irn_batchPublish':
        for (const message of batchPublishSchema.parse(params).messages) publish(connection, message);
        return true;
      case 'wc_proposeSession': {
        const { pairingTopic, sessionProposal, ttl, tag } = proposeSessionSchema.parse(params);
        publish(connection, { topic: pairingTopic, message: sessionProposal, ttl, tag });
        // The proposer is subscribed to the pairing topic by this call: the client does not subscribe itself.
        subscribe(connection, pairingTopic);
        return true;
      }
      case 'wc_approveSession': {
        const approval = approveSessionSchema.parse(params);
        publish(connection, {
          topic: approval.pairingTopic,
          message: approval.sessionProposalResponse,
          ttl: approval.ttl,
          tag: TAG_PROPOSAL_RESPONSE,
        });
        publish(connection, {
          topic: approval.sessionTopic,
          message: approval.sessionSettlementRequest,
          ttl: approval.ttl,
          tag: TAG_SESSION_SETTLE,
        });
        // Likewise the wallet, to the new session topic.
        subscribe(connection, approval.sessionTopic);
        return true;
      }
      case 'irn_subscribe':
        return subscribe(connection, topicSchema.parse(params).topic);
      case 'irn_batchSubscribe':
        return topicsSchema.parse(params).topics.map((topic) => subscribe(connection, topic));
      case 'irn_unsubscribe':
        connection.topics.delete(unsubscribeSchema.parse(params).topic);
        return true;
      case 'irn_batchUnsubscribe':
        for (const { topic } of batchUnsubscribeSchema.parse(params).subscriptions)
          connection.topics.delete(topic);
        return true;
      case 'irn_batchFetchMessages':
        return fetchStored(connection, topicsSchema.parse(params).topics);
      default:
        throw new Error(`The test relay does not implement ${method}.`);
    }
  }

  function onMessage(connection: Connection, data: Buffer): void {
    let raw: unknown;
    try {
      raw = JSON.parse(data.toString('utf8'));
    } catch {
      return;
    }
    const request = requestSchema.safeParse(raw);
    // Anything else is a client's acknowledgement of an irn_subscription: nothing to do.
    if (!request.success) return;
    const { id, method, params } = request.data;
    calls.set(method, (calls.get(method) ?? 0) + 1);
    try {
      send(connection, { id, jsonrpc: '2.0', result: answer(connection, method, params) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      send(connection, { id, jsonrpc: '2.0', error: { code: -32601, message } });
    }
    for (const wake of [...waiters]) wake();
  }

  async function listen(onPort: number): Promise<void> {
    const created = createServer((_request, response) => {
      response.writeHead(426, { 'Content-Type': 'text/plain' }).end('WebSocket only');
    });
    const wss = new WebSocketServer({ server: created });
    wss.on('connection', (socket, request) => {
      opened++;
      const connection: Connection = {
        socket,
        clientId: clientIdOf(request.url, `anonymous-${opened}`),
        topics: new Set(),
      };
      live.add(connection);
      socket.on('message', (data) => onMessage(connection, data));
      socket.on('close', () => live.delete(connection));
      for (const wake of [...waiters]) wake();
    });
    await new Promise<void>((resolve, reject) => {
      created.once('error', reject);
      created.listen(onPort, '127.0.0.1', () => resolve());
    });
    server = created;
    sockets = wss;
    pinger = setInterval(() => {
      for (const connection of live) if (connection.socket.readyState === OPEN) connection.socket.ping();
    }, options.pingEveryMs ?? 10_000);
    pinger.unref();
    port = (created.address() as AddressInfo).port;
  }

  async function close(): Promise<void> {
    const closing = server;
    if (!closing) return;
    server = null;
    clearInterval(pinger);
    for (const connection of live) connection.socket.terminate();
    live.clear();
    sockets?.close();
    sockets = null;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  }

  await listen(0);
  const relay: TestRelay = {
    url: `ws://127.0.0.1:${port}`,
    port,
    calls,
    published,
    connectedClients: () => [...live].map((c) => c.clientId),
    connections: () => opened,
    until(condition, what, timeoutMs = 20_000) {
      return new Promise<void>((resolve, reject) => {
        const wake = () => {
          if (!condition()) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`The test relay waited ${timeoutMs} ms for ${what}.`));
        }, timeoutMs);
        waiters.add(wake);
        wake();
      });
    },
    drop: close,
    restart: () => listen(port),
    stop: close,
  };
  return relay;
}
