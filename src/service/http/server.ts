/** The reference service's HTTP front: routing, errors as JSON bodies, never a stack trace. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HandleStore } from '../store/handles';
import type { PaymentTerms } from '../payment/challenge';
import type { PaymentVerifier } from '../payment/verify';
import type { PaidAnswers } from '../payment/paid-answers';
import type { SettledPurchases } from '../payment/settled-purchases';
import type { SignIn } from '../payment/sign-in';
import { HttpError, sendEncoded, sendError } from './respond';
import { handleReports } from './reports-route';
import { handleBundle } from './bundle-route';
import { handlePurchases } from './purchases-route';

export interface ServiceServerDeps {
  store: HandleStore;
  terms: PaymentTerms;
  verifier: PaymentVerifier;
  /** Keeps paid answers by payment id and offers the `payment-identifier` extension; absent, neither. */
  paidAnswers?: PaidAnswers;
  /** Settled purchases a wallet downloads again after signing in (SIWx); absent, the service offers neither. */
  restore?: { settled: SettledPurchases; signIn: SignIn; pageLimit?: number | undefined };
  librarySecret: string;
  /**
   * The origin the desk reaches the service at (public-url.ts), written into every challenge; absent, the
   * address it listens on. Never taken from a request's Host or X-Forwarded-Host.
   */
  publicUrl?: string | undefined;
  log?: (line: string) => void;
}

export interface ListeningService {
  server: Server;
  baseUrl: string;
  /** The origin its challenges name: publicUrl when configured, else baseUrl. */
  publicUrl: string;
  close(): Promise<void>;
}

export async function listenService(
  deps: ServiceServerDeps,
  port = 0,
  host = '127.0.0.1',
): Promise<ListeningService> {
  let baseUrl = '';
  const routeDeps = { ...deps, publicUrl: () => deps.publicUrl ?? baseUrl };
  const server = createServer((req, res) => {
    // The shelf is the busiest route and needs nothing from the URL: answered before any parsing.
    if (req.method === 'GET' && (req.url === '/api/intel/list' || req.url?.startsWith('/api/intel/list?'))) {
      sendEncoded(req, res, deps.store.shelfEncoded());
      return;
    }
    const url = new URL(req.url ?? '/', 'http://service.invalid');
    const route = async (): Promise<void> => {
      if (url.pathname === '/api/intel/list') {
        throw new HttpError(405, 'method_not_allowed', 'use GET');
      } else if (url.pathname === '/api/intel/reports') {
        if (req.method !== 'GET') throw new HttpError(405, 'method_not_allowed', 'use GET');
        await handleReports(req, res, url, routeDeps);
      } else if (url.pathname === '/api/intel/purchases' && deps.restore) {
        if (req.method !== 'GET') throw new HttpError(405, 'method_not_allowed', 'use GET');
        await handlePurchases(req, res, url, { ...deps.restore, publicUrl: routeDeps.publicUrl });
      } else if (url.pathname === '/api/intel/bundle') {
        if (req.method !== 'GET' && req.method !== 'PUT')
          throw new HttpError(405, 'method_not_allowed', 'use GET or PUT');
        await handleBundle(req, res, url, deps.store, deps.librarySecret);
      } else {
        throw new HttpError(404, 'not_found', `no route ${url.pathname}`);
      }
    };
    route().catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        sendError(res, error);
        return;
      }
      deps.log?.(
        `service error on ${req.method} ${url.pathname}: ${error instanceof Error ? error.stack : String(error)}`,
      );
      sendError(res, new HttpError(500, 'internal_error', 'the service failed to answer this request'));
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  baseUrl = `http://${host}:${address.port}`;
  return {
    server,
    baseUrl,
    publicUrl: deps.publicUrl ?? baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
