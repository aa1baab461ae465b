/**
 * The service client against a scripted HTTP server: one typed error for each way an exchange can go wrong,
 * retries with backoff on free routes only, and a paid request that is sent once and never retried.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentPayload } from '@x402/core/types';
import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import { ServiceClient, type ServiceClientOptions } from '../../src/core/client/service-client';
import { failure } from './helpers';

type Handler = (req: IncomingMessage, res: ServerResponse, index: number) => void;

interface Scripted {
  url: string;
  /** Each request, with the payment headers it carried (name → value). */
  requests: { url: string; payments: Record<string, string> }[];
  close(): Promise<void>;
}

const servers: Scripted[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function scripted(handler: Handler): Promise<Scripted> {
  const requests: Scripted['requests'] = [];
  const server = createServer((req, res) => {
    const payments: Record<string, string> = {};
    for (const name of ['payment-signature', 'x-402-payment', 'x-payment']) {
      const value = req.headers[name];
      if (typeof value === 'string') payments[name] = value;
    }
    requests.push({ url: req.url ?? '', payments });
    handler(req, res, requests.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const entry: Scripted = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(entry);
  return entry;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

const SHELF = { configured: true, entries: [] };
const CHALLENGE = {
  x402Version: 2,
  error: 'Payment required',
  accepts: [
    {
      protocol: 'x402',
      version: 2,
      network: 'eip155:8453',
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      amount: '10000',
      payTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    },
  ],
  extensions: {
    chainId: 8453,
    tokenDecimals: 6,
    unitPriceUsd: 0.01,
    reportCount: 1,
    select: 'all',
    resource: '/api/intel/reports?username=a&select=all',
  },
};
const PAID = { username: 'a', select: 'all', reportCount: 0, chargedUsd: 0, reports: [] };
const PAID_PATH = '/api/intel/reports?username=a&select=all';
/** A payment as the client sends it; its content does not matter to a scripted server. */
const PAYMENT = {
  x402Version: 2,
  accepted: { ...CHALLENGE.accepts[0]!, scheme: 'exact', maxTimeoutSeconds: 300, extra: {} },
  payload: { signature: '0x01', authorization: { nonce: '0x02' } },
} as PaymentPayload;
const ENCODED = Buffer.from(JSON.stringify(PAYMENT)).toString('base64');
const ALL_THREE = { 'payment-signature': ENCODED, 'x-402-payment': ENCODED, 'x-payment': ENCODED };

function clientFor(url: string, options: ServiceClientOptions = {}) {
  const sleeps: number[] = [];
  const client = new ServiceClient(url, {
    backoffMs: 100,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { client, sleeps };
}

async function closedPortUrl(): Promise<string> {
  const server = await scripted(() => undefined);
  await server.close();
  servers.splice(servers.indexOf(server), 1);
  return server.url;
}

describe('typed errors', () => {
  it('network failure: a refused connection is network_unreachable and provably unsent', async () => {
    const { client, sleeps } = clientFor(await closedPortUrl());
    const error = await failure(client.list());
    expect(error).toMatchObject({ code: 'network_unreachable', kind: 'network', details: { notSent: true } });
    expect(sleeps).toEqual([100, 200]);
  });

  it('a connection reset before the answer is network_failed, and not known to be unsent', async () => {
    const server = await scripted((req) => req.socket.resetAndDestroy());
    const error = await failure(clientFor(server.url, { attempts: 1 }).client.list());
    expect(error).toMatchObject({ code: 'network_failed', kind: 'network' });
    expect(error.details['notSent']).toBeUndefined();
  });

  it('timeout: a service that never answers is network_timeout', async () => {
    const server = await scripted(() => undefined);
    const { client } = clientFor(server.url, { attempts: 1, timeoutMs: 150 });
    expect(await failure(client.menu('someone'))).toMatchObject({ code: 'network_timeout', kind: 'network' });
  });

  it('cancellation: an AbortSignal stops a request in flight and a retry waiting in backoff', async () => {
    const inFlight = new AbortController();
    const stalled = await scripted(() => inFlight.abort());
    const { client } = clientFor(stalled.url, { timeoutMs: 30_000 });
    expect(await failure(client.list(inFlight.signal))).toMatchObject({ code: 'cancelled' });
    expect(stalled.requests).toHaveLength(1);

    const waiting = new AbortController();
    const failing = await scripted((_req, res) => {
      json(res, 503, { error: 'busy' });
      waiting.abort();
    });
    const real = new ServiceClient(failing.url, { backoffMs: 60_000 });
    expect(await failure(real.list(waiting.signal))).toMatchObject({ code: 'cancelled' });
    expect(failing.requests).toHaveLength(1);
  });

  it('malformed JSON: text that is not JSON, and JSON of the wrong shape, are service_malformed', async () => {
    const bodies = ['<html>not json</html>', JSON.stringify({ configured: 'yes', entries: [] })];
    const server = await scripted((_req, res, index) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(bodies[index]);
    });
    const { client } = clientFor(server.url);
    expect(await failure(client.list())).toMatchObject({
      code: 'service_malformed',
      message: expect.stringMatching(/not valid JSON/),
    });
    expect(await failure(client.list())).toMatchObject({
      code: 'service_malformed',
      message: expect.stringMatching(/configured/),
    });
  });

  it('one bad shelf entry never hides the shelf: bad fields dropped, entries without a handle counted', async () => {
    const entries = [
      { username: 'ada', displayName: 'Ada', followers: 12 },
      { username: 'bob', displayName: null, followers: '12k', gatheredAt: 7, extra: { kept: true } },
      { displayName: 'no handle at all' },
      'not an entry',
      { username: '' },
    ];
    const server = await scripted((_req, res) => json(res, 200, { configured: true, entries }));
    const { client } = clientFor(server.url);
    const shelf = await client.list();
    expect(shelf.entries).toEqual([
      { username: 'ada', displayName: 'Ada', followers: 12 },
      { username: 'bob', extra: { kept: true } },
    ]);
    expect(shelf.skippedEntries).toBe(3);
  });

  it('unexpected status: an unexplained status, a redirect, and reports without payment', async () => {
    const server = await scripted((req, res, index) => {
      if (index === 0) {
        res.writeHead(418, { 'Content-Type': 'text/html' });
        res.end('<h1>teapot</h1>');
      } else if (index === 1) {
        res.writeHead(302, { Location: '/elsewhere' });
        res.end();
      } else {
        json(res, 200, PAID);
      }
    });
    const { client } = clientFor(server.url);
    expect(await failure(client.list())).toMatchObject({
      code: 'service_unexpected_status',
      kind: 'service',
      details: { status: 418 },
    });
    expect(await failure(client.list())).toMatchObject({
      code: 'service_unexpected_status',
      message: expect.stringMatching(/redirect/),
    });
    expect(await failure(client.challenge(PAID_PATH))).toMatchObject({ code: 'service_unexpected_status' });
  });

  it('oversize body: a declared length over the cap, and a streamed body that grows over it', async () => {
    const big = 'x'.repeat(10_000);
    const server = await scripted((_req, res, index) => {
      if (index === 0) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(big.length) });
        res.end(big);
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        for (let i = 0; i < 10; i++) res.write(big.slice(0, 1000));
        res.end();
      }
    });
    const { client } = clientFor(server.url, { maxBytes: 4096 });
    expect(await failure(client.list())).toMatchObject({
      code: 'service_oversize',
      message: expect.stringMatching(/10000 bytes/),
    });
    expect(await failure(client.list())).toMatchObject({
      code: 'service_oversize',
      message: expect.stringMatching(/more than 4096/),
    });
  });
  it('a 4 MB challenge, in its header or its body, is said to be too large, not a failed connection', async () => {
    const padded = JSON.stringify({ ...CHALLENGE, padding: 'x'.repeat(4 * 1024 * 1024) });
    const server = await scripted((_req, res, index) => {
      // As the reference service does: the challenge in the body and, base64, in PAYMENT-REQUIRED.
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (index === 0) headers['PAYMENT-REQUIRED'] = Buffer.from(padded).toString('base64');
      res.writeHead(402, headers);
      res.end(padded);
    });
    const contacts: boolean[] = [];
    const { client } = clientFor(server.url, {
      attempts: 1,
      onContact: (contact) => contacts.push(contact.reachable),
    });
    for (let i = 0; i < 2; i++) {
      const error = await failure(client.challenge(PAID_PATH));
      expect(error).toMatchObject({ code: 'service_oversize', kind: 'service' });
      expect(error.message).toMatch(/too large/);
      expect(error.message).not.toMatch(/connection/);
    }
    expect(contacts).not.toContain(false);
  });
});

describe('retries', () => {
  it('retries a free route after 5xx and network failures, with doubling backoff', async () => {
    const server = await scripted((req, res, index) => {
      if (index === 0) json(res, 503, { error: 'busy' });
      else if (index === 1) req.socket.resetAndDestroy();
      else json(res, 200, SHELF);
    });
    const { client, sleeps } = clientFor(server.url);
    expect(await client.list()).toEqual({ ...SHELF, skippedEntries: 0 });
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it('does not retry a free route the service refused (4xx), and gives up after the last attempt', async () => {
    const refusing = await scripted((_req, res) => json(res, 404, { error: 'unknown_handle' }));
    const first = clientFor(refusing.url);
    expect(await failure(first.client.menu('nobody'))).toMatchObject({ code: 'unknown_handle' });
    expect(refusing.requests).toHaveLength(1);
    expect(first.sleeps).toEqual([]);

    const failing = await scripted((_req, res) => json(res, 502, { error: 'bad_gateway' }));
    const second = clientFor(failing.url, { attempts: 4 });
    expect(await failure(second.client.list())).toMatchObject({ details: { status: 502 } });
    expect(failing.requests).toHaveLength(4);
    expect(second.sleeps).toEqual([100, 200, 400]);
  });

  it('does not retry a free route that timed out: the cached copy should not wait twice', async () => {
    const stalled = await scripted(() => undefined);
    const { client, sleeps } = clientFor(stalled.url, { timeoutMs: 150 });
    expect(await failure(client.list())).toMatchObject({ code: 'network_timeout' });
    expect(stalled.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('never retries a paid request: a 5xx, a reset and a timeout each cost exactly one request', async () => {
    const answers: Handler[] = [
      (_req, res) => json(res, 503, { error: 'busy' }),
      (req) => req.socket.resetAndDestroy(),
      () => undefined,
    ];
    for (const answer of answers) {
      const server = await scripted(answer);
      const { client, sleeps } = clientFor(server.url, { timeoutMs: 200 });
      const error = await failure(client.pay(PAID_PATH, PAYMENT));
      expect(['service', 'network']).toContain(error.kind);
      expect(server.requests).toEqual([{ url: PAID_PATH, payments: ALL_THREE }]);
      expect(sleeps).toEqual([]);
    }
  });

  it('sends one request carrying the same payload in PAYMENT-SIGNATURE, X-402-Payment and X-Payment', async () => {
    const settled = { success: true, transaction: `0x${'ab'.repeat(32)}`, network: 'eip155:8453' } as const;
    const service = await scripted((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'PAYMENT-RESPONSE': encodePaymentResponseHeader(settled),
      });
      res.end(JSON.stringify(PAID));
    });
    const answer = await clientFor(service.url).client.pay(PAID_PATH, PAYMENT);
    expect(answer.settlement).toMatchObject(settled);
    expect(service.requests).toEqual([{ url: PAID_PATH, payments: ALL_THREE }]);
    const decoded: unknown = JSON.parse(Buffer.from(ENCODED, 'base64').toString('utf8'));
    expect(decoded).toEqual(PAYMENT);
  });

  it('a fresh challenge after payment is a refusal, never a reason to send the payment again', async () => {
    const ignoring = await scripted((_req, res) => json(res, 402, CHALLENGE));
    const error = await failure(clientFor(ignoring.url).client.pay(PAID_PATH, PAYMENT));
    expect(error).toMatchObject({ kind: 'service', details: { status: 402 } });
    expect(error.message).toMatch(/as if no payment had been sent/);
    expect(ignoring.requests).toHaveLength(1);
  });

  it("names an x402 v2 server's reason: a verify failure in PAYMENT-REQUIRED, a settlement failure in PAYMENT-RESPONSE", async () => {
    const verifyFailed = await scripted((_req, res) => {
      const challenge = {
        ...CHALLENGE,
        extensions: undefined,
        error: 'invalid_exact_evm_insufficient_balance',
      };
      res.writeHead(402, {
        'Content-Type': 'application/json',
        'PAYMENT-REQUIRED': encodePaymentRequiredHeader(challenge as never),
      });
      res.end('{}');
    });
    const poor = await failure(clientFor(verifyFailed.url).client.pay(PAID_PATH, PAYMENT));
    expect(poor).toMatchObject({
      code: 'invalid_exact_evm_insufficient_balance',
      kind: 'service',
      details: { status: 402 },
    });
    expect(poor.message).toMatch(/balance is below the price \(invalid_exact_evm_insufficient_balance\)/);

    const transaction = `0x${'cd'.repeat(32)}`;
    const settleFailed = await scripted((_req, res) => {
      res.writeHead(402, {
        'Content-Type': 'application/json',
        'PAYMENT-RESPONSE': encodePaymentResponseHeader({
          success: false,
          errorReason: 'transaction_failed',
          transaction,
          network: 'eip155:8453',
        }),
      });
      res.end('{}');
    });
    const reverted = await failure(clientFor(settleFailed.url).client.pay(PAID_PATH, PAYMENT));
    expect(reverted).toMatchObject({ code: 'transaction_failed', details: { status: 402, transaction } });
    expect(settleFailed.requests).toHaveLength(1);
  });

  it("keeps the spec's own error codes and figures from the body", async () => {
    const refusing = await scripted((_req, res) =>
      json(res, 402, { error: 'insufficient_payment', requiredUsd: 0.02, paidUsd: 0.01 }),
    );
    const error = await failure(clientFor(refusing.url).client.pay(PAID_PATH, PAYMENT));
    expect(error).toMatchObject({
      code: 'insufficient_payment',
      details: { requiredUsd: 0.02, paidUsd: 0.01 },
    });
    expect(refusing.requests).toHaveLength(1);
  });
});
