/**
 * The fault-injecting proxy in front of the chain RPC the desks read (the service talks to the chain
 * directly: it is the desks' view of the chain that fails). It passes JSON-RPC through, stalls it past the
 * desk's deadline, or answers errors, as an overloaded or broken RPC provider does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ChainMode = 'pass' | 'stall' | 'error';

export class ChainProxy {
  url = '';
  mode: ChainMode = 'pass';
  /** Requests that met a stall or an error. */
  faulted = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly target: string,
    /** How long a stalled call is held before the connection is dropped: past the desk's deadline. */
    private readonly stallMs: number,
  ) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const mode = this.mode;
        if (mode === 'stall') {
          this.faulted++;
          const timer = setTimeout(() => req.socket.destroy(), this.stallMs);
          req.socket.once('close', () => clearTimeout(timer));
          return;
        }
        if (mode === 'error') {
          this.faulted++;
          // Alternate the two ways providers fail: an HTTP error and a JSON-RPC error.
          if (this.faulted % 2 === 0) {
            res.writeHead(503, { 'content-type': 'text/plain' });
            res.end('Service Unavailable');
          } else {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({
                jsonrpc: '2.0',
                id: idOf(Buffer.concat(chunks)),
                error: { code: -32603, message: 'chaos: internal error' },
              }),
            );
          }
          return;
        }
        fetch(this.target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
          signal: AbortSignal.timeout(30_000),
        })
          .then(async (upstream) => {
            const text = await upstream.text();
            res.writeHead(upstream.status, { 'content-type': 'application/json' });
            res.end(text);
          })
          .catch(() => {
            res.writeHead(502);
            res.end();
          });
      });
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function idOf(body: Buffer): unknown {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return parsed && typeof parsed === 'object' && 'id' in parsed ? parsed.id : null;
  } catch {
    return null;
  }
}
