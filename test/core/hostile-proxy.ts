/**
 * A proxy in front of the reference service that rewrites 402 challenges the way a hostile or broken
 * service would, and records every payment header that reaches it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PaidBody {
  username: string;
  reportCount: number;
  reports: ({ id: string } & Record<string, unknown>)[];
  [key: string]: unknown;
}

export type ChallengeMutation = (challenge: Record<string, unknown>) => unknown;

export interface HostileProxy {
  url: string;
  /** The service behind the proxy; changing it sends later requests to another service at the same URL. */
  target: string;
  mutate: ChallengeMutation | null;
  /** Forward only this payment header (lower case), as a service that reads only it would see the request. */
  onlyPaymentHeader: string | null;
  paymentsSeen: string[];
  /** The payment headers of each paid request that reached the proxy (name → value). */
  paidRequests: Record<string, string>[];
  /** Every Authorization header (the library secret travels as a bearer token) that reached the proxy. */
  authorizationsSeen: string[];
  /** Every SIGN-IN-WITH-X header (a signed sign-in challenge) that reached the proxy. */
  signInsSeen: string[];
  /** Rewrites the body of a 200 answer to a request without payment (the list of purchases, a menu). */
  rewriteFree: ((body: Record<string, unknown>) => unknown) | null;
  /** Awaited when a payment reached the proxy, before it is passed on to the service. */
  beforePaidForward: (() => Promise<void>) | null;
  /** Awaited when a request without a payment reached the proxy (its path and query), before it is passed on. */
  beforeUnpaidForward: ((url: string) => Promise<void>) | null;
  /** Awaited after the service settled and answered a payment, before that answer is passed on. */
  beforePaidAnswer: (() => Promise<void>) | null;
  /** A gateway's own answer given instead of the service's, once the service has answered a payment. */
  paidAnswer: { status: number; body: string } | null;
  /** A gateway that retries a paid request once on its own, passing on the service's second answer. */
  retryPaid: boolean;
  /** Rewrites the body of a paid answer (200 to a request with a payment header) after the service settled. */
  rewritePaid: ((body: PaidBody) => Promise<unknown>) | null;
  /** Rewrites the settlement a paid answer's X-Payment-Response names (its decoded JSON), as a broken service would. */
  rewriteSettlement: ((settlement: Record<string, unknown>) => unknown) | null;
  /** Closes the connection of this many next requests without an answer, as a dropped network would. */
  dropNext: number;
  close(): Promise<void>;
}

const PAYMENT_HEADERS = ['payment-signature', 'x-402-payment', 'x-payment'];

/**
 * A payment header whose v2 `accepted` is replaced by the terms the service behind the proxy offered. With
 * `mutate` set, the proxy and the service together stand for a service that offers the edited terms: such a
 * service accepts its own terms echoed back, while the reference service refuses any `accepted` other than
 * its own offer. Anything else (v1, not JSON) passes unchanged.
 */
function withOfferedTerms(value: string, offered: unknown): string {
  try {
    const payload = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as Record<string, unknown>;
    if (payload['x402Version'] !== 2) return value;
    return Buffer.from(JSON.stringify({ ...payload, accepted: offered })).toString('base64');
  } catch {
    return value;
  }
}

export async function startHostileProxy(target: string): Promise<HostileProxy> {
  /** accepts[0] as the service offered it, by request URL, for challenges the proxy edited. */
  const offered = new Map<string, unknown>();
  const proxy: HostileProxy = {
    url: '',
    target,
    mutate: null,
    onlyPaymentHeader: null,
    paymentsSeen: [],
    paidRequests: [],
    authorizationsSeen: [],
    signInsSeen: [],
    rewriteFree: null,
    beforePaidForward: null,
    beforeUnpaidForward: null,
    beforePaidAnswer: null,
    paidAnswer: null,
    retryPaid: false,
    rewritePaid: null,
    rewriteSettlement: null,
    dropNext: 0,
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    if (proxy.dropNext > 0) {
      proxy.dropNext -= 1;
      req.socket.destroy();
      return;
    }
    const paymentHeaders: Record<string, string> = {};
    for (const name of PAYMENT_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') paymentHeaders[name] = value;
    }
    const payment = Object.values(paymentHeaders)[0];
    if (payment !== undefined) {
      proxy.paymentsSeen.push(payment);
      proxy.paidRequests.push(paymentHeaders);
    }
    if (typeof req.headers.authorization === 'string')
      proxy.authorizationsSeen.push(req.headers.authorization);
    const signIn = req.headers['sign-in-with-x'];
    if (typeof signIn === 'string') proxy.signInsSeen.push(signIn);
    const headers: Record<string, string> = {};
    const forwarded = [
      ...PAYMENT_HEADERS.filter(
        (name) => proxy.onlyPaymentHeader === null || name === proxy.onlyPaymentHeader,
      ),
      'authorization',
      'accept',
      'sign-in-with-x',
    ];
    const original = offered.get(req.url ?? '/');
    for (const name of forwarded) {
      const value = req.headers[name];
      if (typeof value !== 'string') continue;
      headers[name] =
        original !== undefined && PAYMENT_HEADERS.includes(name) ? withOfferedTerms(value, original) : value;
    }
    const forward = () => fetch(`${proxy.target}${req.url ?? '/'}`, { headers });
    const paid = typeof payment === 'string';
    const held =
      (paid ? proxy.beforePaidForward?.() : proxy.beforeUnpaidForward?.(req.url ?? '/')) ?? Promise.resolve();
    held
      .then(() =>
        paid && proxy.retryPaid ? forward().then((first) => first.text().then(forward)) : forward(),
      )
      .then(async (upstream) => {
        let body = await upstream.text();
        const parsed = upstream.status === 402 ? (JSON.parse(body) as Record<string, unknown>) : null;
        // Only challenges are rewritten; the service's own payment errors pass through as they are.
        if (parsed && Array.isArray(parsed['accepts'])) {
          if (proxy.mutate) {
            offered.set(req.url ?? '/', parsed['accepts'][0]);
            body = JSON.stringify(proxy.mutate(parsed));
          } else offered.delete(req.url ?? '/');
        }
        const out: Record<string, string> = { 'Content-Type': 'application/json' };
        const receipt = upstream.headers.get('x-payment-response');
        if (receipt)
          out['X-Payment-Response'] = proxy.rewriteSettlement
            ? Buffer.from(
                JSON.stringify(
                  proxy.rewriteSettlement(
                    JSON.parse(Buffer.from(receipt, 'base64').toString('utf8')) as Record<string, unknown>,
                  ),
                ),
              ).toString('base64')
            : receipt;
        if (!paid && upstream.status === 200 && proxy.rewriteFree)
          body = JSON.stringify(proxy.rewriteFree(JSON.parse(body) as Record<string, unknown>));
        if (paid && upstream.status === 200) {
          await proxy.beforePaidAnswer?.();
          if (proxy.rewritePaid) body = JSON.stringify(await proxy.rewritePaid(JSON.parse(body) as PaidBody));
        }
        if (paid && proxy.paidAnswer) {
          res.writeHead(proxy.paidAnswer.status, { 'Content-Type': 'text/html' });
          res.end(proxy.paidAnswer.body);
          return;
        }
        res.writeHead(upstream.status, out);
        res.end(body);
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}

/** A deep copy of the challenge with accepts[0] and extensions edited. */
export function editChallenge(
  accepts: Record<string, unknown> = {},
  extensions: Record<string, unknown> = {},
  top: Record<string, unknown> = {},
): ChallengeMutation {
  return (challenge) => {
    const copy = structuredClone(challenge) as {
      accepts: Record<string, unknown>[];
      extensions: Record<string, unknown>;
    };
    copy.accepts[0] = { ...copy.accepts[0], ...accepts };
    copy.extensions = { ...copy.extensions, ...extensions };
    return { ...copy, ...top };
  };
}

/**
 * A challenge without the x402 payment-identifier offer, as a service that keeps no paid answers sends it: the
 * desk then sends no payment id and never sends a payment again (decision 0024).
 */
export const withoutPaymentIdentifier: ChallengeMutation = (challenge) => {
  const copy = structuredClone(challenge) as { extensions?: Record<string, unknown> };
  if (copy.extensions) delete copy.extensions['payment-identifier'];
  return copy;
};
