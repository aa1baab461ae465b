/**
 * A network as it is at work, built in the test: a certificate authority of its own (made with the openssl
 * CLI), an HTTPS front for the reference service or a chain RPC signed by it, and a CONNECT proxy that
 * records every tunnel asked of it and can demand credentials (407) or refuse a host (403).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';

export interface TestCa {
  /** The CA's certificate (PEM), as a person would give it in Settings. */
  caFile: string;
  /** A server certificate and key signed by the CA, for localhost, 127.0.0.1 and 0.0.0.0. */
  cert: string;
  key: string;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'ignore' });
}

export function makeTestCa(dir: string): TestCa {
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Intel Desk Test Inspection CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  openssl(
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'leaf.key',
      '-out',
      'leaf.csr',
      '-subj',
      '/CN=localhost',
    ],
    dir,
  );
  writeFileSync(
    path.join(dir, 'leaf.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:0.0.0.0\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'leaf.pem',
      '-days',
      '2',
      '-extfile',
      'leaf.ext',
    ],
    dir,
  );
  return {
    caFile: path.join(dir, 'ca.pem'),
    cert: readFileSync(path.join(dir, 'leaf.pem'), 'utf8'),
    key: readFileSync(path.join(dir, 'leaf.key'), 'utf8'),
  };
}

function tracked(): { add(socket: Socket): void; destroyAll(): void } {
  const sockets = new Set<Socket>();
  return {
    add(socket) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => sockets.delete(socket));
    },
    destroyAll: () => sockets.forEach((socket) => socket.destroy()),
  };
}

export interface TlsFront {
  port: number;
  /** The front as a desk names it: https://host:port. */
  url(host: string): string;
  close(): Promise<void>;
}

/** TLS on the outside, the plain-http target (the reference service, anvil) inside. */
/** `target` is read for each connection, so a front can be started before what it fronts (to name it). */
export async function startTlsFront(ca: TestCa, target: () => string): Promise<TlsFront> {
  const sockets = tracked();
  const server = tls.createServer({ cert: ca.cert, key: ca.key }, (socket) => {
    sockets.add(socket);
    const inner = new URL(target());
    const upstream = net.connect(Number(inner.port), inner.hostname);
    sockets.add(upstream);
    socket.pipe(upstream).pipe(socket);
  });
  // A handshake the client gives up on is the point of some tests, not an error of the front.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (host) => `https://${host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        sockets.destroyAll();
        server.close(() => resolve());
      }),
  };
}

export interface ConnectProxy {
  url: string;
  /** Every CONNECT asked, as host:port, in order, whatever the answer. */
  tunnels: string[];
  /** The Proxy-Authorization of each CONNECT (undefined when none was sent). */
  authorizations: (string | undefined)[];
  /** Non-CONNECT requests (a plain forward request would be one): none are expected. */
  forwarded: string[];
  close(): Promise<void>;
}

export interface ConnectProxyOptions {
  /** `user:password` the proxy demands (407 without it). */
  credentials?: string;
  /** Hosts (host:port) the proxy refuses with 403. */
  refuse?: string[];
}

export async function startConnectProxy(options: ConnectProxyOptions = {}): Promise<ConnectProxy> {
  const sockets = tracked();
  const proxy: ConnectProxy = {
    url: '',
    tunnels: [],
    authorizations: [],
    forwarded: [],
    close: async () => undefined,
  };
  const server = http.createServer((request, response) => {
    proxy.forwarded.push(`${request.method ?? ''} ${request.url ?? ''}`);
    response.writeHead(405).end();
  });
  server.on('connect', (request: http.IncomingMessage, socket: Socket, head: Buffer) => {
    sockets.add(socket);
    const target = request.url ?? '';
    const authorization = request.headers['proxy-authorization'];
    proxy.tunnels.push(target);
    proxy.authorizations.push(authorization);
    const expected = options.credentials
      ? `Basic ${Buffer.from(options.credentials).toString('base64')}`
      : undefined;
    if (expected !== undefined && authorization !== expected) {
      socket.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n',
      );
      return;
    }
    if (options.refuse?.includes(target)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host = '', port = ''] = target.split(/:(?=\d+$)/);
    const upstream = net.connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      sockets.destroyAll();
      server.close(() => resolve());
    });
  return proxy;
}
