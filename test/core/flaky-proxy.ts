/**
 * A TCP proxy that makes a service (or a chain RPC) flaky on demand: it passes traffic through, stalls it
 * (accepts and never answers, and holds back answers still on their way), resets it, drops it (closes
 * without an answer), or goes down (refuses connections) and comes back on the same port. Every connection
 * it accepts is counted.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type FlakyMode = 'pass' | 'stall' | 'reset' | 'drop';

export interface FlakyProxy {
  url: string;
  mode: FlakyMode;
  /** Connections accepted so far, in any mode. */
  connections: number;
  /** HTTP request lines received so far, in any mode (answered or not). */
  requests: number;
  /** Stops listening and cuts every open connection at once: new connections are refused. */
  down(): void;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const proxy: FlakyProxy = {
    url: '',
    mode: 'pass',
    connections: 0,
    requests: 0,
    down: () => undefined,
    up: async () => undefined,
    close: async () => undefined,
  };
  const server: Server = createServer((client) => {
    track(client);
    proxy.connections++;
    let upstreamSocket: Socket | null = null;
    // The mode is read for every chunk, so a change also hits connections kept alive from before.
    client.on('data', (chunk: Buffer) => {
      proxy.requests += chunk.toString('latin1').match(/^[A-Z]+ \S+ HTTP\/1\.1\r$/gm)?.length ?? 0;
      if (proxy.mode === 'stall') return;
      if (proxy.mode === 'reset') return void client.resetAndDestroy();
      if (proxy.mode === 'drop') return void client.end();
      if (!upstreamSocket) {
        const socket = connect({ host: upstream.hostname, port: Number(upstream.port) });
        track(socket);
        socket.on('data', (answer: Buffer) => {
          if (proxy.mode === 'pass') client.write(answer);
        });
        socket.once('close', () => client.destroy());
        client.once('close', () => socket.destroy());
        upstreamSocket = socket;
      }
      upstreamSocket.write(chunk);
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.down = () => {
    server.close();
    for (const socket of sockets) socket.destroy();
  };
  proxy.up = () => listen(port);
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) resolve();
      else server.close(() => resolve());
    });
  return proxy;
}
