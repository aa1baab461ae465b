/**
 * A reverse proxy on loopback, as an operator puts in front of a service (nginx `proxy_set_header Host $host`):
 * it passes every request on with its own Host kept, adds X-Forwarded-Host and X-Forwarded-Proto, and records
 * the sign-in proofs that went through it.
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Gateway {
  url: string;
  /** The service behind it; set after the service starts when the service must be told the gateway's URL. */
  target: string;
  /** Every SIGN-IN-WITH-X header that reached the gateway: a signature the desk sent. */
  signInsSeen: string[];
  close(): Promise<void>;
}

export async function startGateway(target = ''): Promise<Gateway> {
  const gateway: Gateway = { url: '', target, signInsSeen: [], close: async () => undefined };
  const server = createServer((req, res) => {
    const proof = req.headers['sign-in-with-x'];
    if (typeof proof === 'string') gateway.signInsSeen.push(proof);
    const upstream = new URL(gateway.target);
    const headers: IncomingHttpHeaders = {
      ...req.headers,
      'x-forwarded-host': req.headers.host ?? '',
      'x-forwarded-proto': 'http',
      'x-forwarded-for': req.socket.remoteAddress ?? '',
    };
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gateway.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gateway.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return gateway;
}
