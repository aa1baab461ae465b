/**
 * The interop peer: a Shared Report Purchase API built the ordinary way with the official x402 v2 packages —
 * express 5, `paymentMiddleware` from @x402/express, an `x402ResourceServer` with @x402/evm's exact scheme for
 * eip155:84532, and the official facilitator in-process — on the Base Sepolia anvil chain.
 * Form 'stock' adds nothing to the middleware; form 'extras' adds the spec's additions (peer-extras.ts).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import type { HTTPRequestContext, RoutesConfig } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { formatUnits, getAddress, type Address } from 'viem';
import type { AnvilTestAccount, BaseSepolia } from './base-sepolia';
import { inProcessFacilitator } from './facilitator';
import { peerShelf, readReportsQuery } from './peer-data';
import { specExtras, type PeerLocals } from './peer-extras';

export type PeerForm = 'stock' | 'extras';

export interface InteropPeerOptions {
  chain: BaseSepolia;
  form: PeerForm;
  /** USD per report (default 0.01); a paid request costs this × the reports it matches. */
  unitPriceUsd?: number;
  /** Who is paid (default the chain's payee, anvil #1). */
  payTo?: Address;
  /** The anvil account the facilitator settles from (default #8; settlements from one account are serialized). */
  facilitator?: AnvilTestAccount;
}

/** The headers a request may carry a payment in. */
export const PAYMENT_HEADER_NAMES = ['payment-signature', 'x-payment', 'x-402-payment'] as const;

/** One request to /api/intel/*, as the peer received it (before any header was renamed) and answered it. */
export interface PeerRequest {
  method: string;
  /** Path and query. */
  url: string;
  /** Request headers as received, names lower-cased. */
  headers: Record<string, string>;
  /** Which of PAYMENT_HEADER_NAMES it carried. */
  paymentHeaders: string[];
  /** The status answered (set when the head is written). */
  status?: number;
  /** The PAYMENT-RESPONSE header answered, if any. */
  paymentResponse?: string;
}

export interface InteropPeer {
  /** Base URL, http://127.0.0.1:<port>. */
  url: string;
  form: PeerForm;
  payTo: Address;
  unitPriceUsd: number;
  /** The account the official facilitator settles from. */
  facilitatorAddress: Address;
  /** Every request to /api/intel/*, in arrival order. */
  readonly requests: readonly PeerRequest[];
  /** The requests that carried a payment header. */
  readonly paidRequests: readonly PeerRequest[];
  stop(): Promise<void>;
}

const TOKEN_DECIMALS = 6;

function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) record[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return record;
}

function queryOf(context: HTTPRequestContext): unknown {
  return (
    context.adapter.getQueryParams?.() ?? Object.fromEntries(new URL(context.adapter.getUrl()).searchParams)
  );
}

export async function startInteropPeer(options: InteropPeerOptions): Promise<InteropPeer> {
  const { chain, form } = options;
  const unitPriceUsd = options.unitPriceUsd ?? 0.01;
  const unitBaseUnits = BigInt(Math.round(unitPriceUsd * 10 ** TOKEN_DECIMALS));
  const payTo = getAddress(options.payTo ?? chain.accounts.payee.address);
  const facilitator = inProcessFacilitator(chain, options.facilitator);
  const requests: PeerRequest[] = [];

  // The price of a paid request: unit price × the reports it matches. The pre-payment check has already refused
  // any request matching none, so a request reaching the middleware always has a count.
  const price = (context: HTTPRequestContext): string => {
    const read = readReportsQuery(queryOf(context));
    const count = read.kind === 'paid' ? read.selection.reports.length : 0;
    return `$${formatUnits(unitBaseUnits * BigInt(count), TOKEN_DECIMALS)}`;
  };
  const routes: RoutesConfig = {
    'GET /api/intel/reports': {
      accepts: { scheme: 'exact', network: chain.network, payTo, price, maxTimeoutSeconds: 300 },
      description: 'Shared intelligence reports',
      mimeType: 'application/json',
    },
  };
  const resourceServer = new x402ResourceServer(facilitator.client).register(
    chain.network,
    new ExactEvmScheme(),
  );

  const app = express();
  app.disable('x-powered-by');
  app.use('/api/intel', (req: Request, res: Response, next: NextFunction) => {
    const record: PeerRequest = {
      method: req.method,
      url: req.originalUrl,
      headers: headerRecord(req.headers),
      paymentHeaders: PAYMENT_HEADER_NAMES.filter((name) => req.headers[name] !== undefined),
    };
    requests.push(record);
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    res.writeHead = ((...args: unknown[]): Response => {
      record.status = typeof args[0] === 'number' ? args[0] : res.statusCode;
      const receipt = res.getHeader('PAYMENT-RESPONSE');
      if (typeof receipt === 'string') record.paymentResponse = receipt;
      return writeHead(...args);
    }) as Response['writeHead'];
    next();
  });
  app.get('/api/intel/list', (_req, res) => {
    res.json(peerShelf());
  });
  // Ahead of the payment middleware: the free menu, and every refusal a paid request can get before paying.
  app.get('/api/intel/reports', (req: Request, res: Response, next: NextFunction) => {
    const read = readReportsQuery(req.query);
    if (read.kind === 'menu') {
      res.json(read.menu);
      return;
    }
    if (read.kind === 'paid') {
      (res.locals as PeerLocals).selection = read.selection;
      next();
      return;
    }
    res.status(read.status).json({ error: read.error, message: read.message });
  });
  if (form === 'extras') {
    app.use(specExtras({ chainId: chain.chainId, unitPriceUsd, tokenDecimals: TOKEN_DECIMALS }));
  }
  app.use(paymentMiddleware(routes, resourceServer));
  app.get('/api/intel/reports', (_req: Request, res: Response) => {
    const selection = (res.locals as PeerLocals).selection;
    if (!selection) throw new Error('a paid request reached its handler without a selection');
    const charged = unitBaseUnits * BigInt(selection.reports.length);
    res.json({
      username: selection.username,
      select: selection.select,
      reportCount: selection.reports.length,
      chargedUsd: Number(formatUnits(charged, TOKEN_DECIMALS)),
      reports: selection.reports,
    });
  });

  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    form,
    payTo,
    unitPriceUsd,
    facilitatorAddress: facilitator.address,
    requests,
    get paidRequests() {
      return requests.filter((request) => request.paymentHeaders.length > 0);
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
