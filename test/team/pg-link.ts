/**
 * One desk's own line to a PostgreSQL cluster's Unix socket, which a test can pull out and put back at the same
 * address: that desk alone loses the team (its laptop on a train) while the others keep working.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface PgLink {
  /** The folder a client names as `host=` to go through the link. */
  socketDir: string;
  /** Every connection through the link is cut, and new ones are refused, until `plug`. */
  unplug(): Promise<void>;
  plug(): Promise<void>;
  close(): Promise<void>;
}

export async function startPgLink(serverSocketDir: string): Promise<PgLink> {
  const socketDir = mkdtempSync(path.join(tmpdir(), 'desk-pg-link-'));
  const socketPath = path.join(socketDir, '.s.PGSQL.5432');
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(path.join(serverSocketDir, '.s.PGSQL.5432'));
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  const listen = () => new Promise<void>((resolve) => server.listen(socketPath, resolve));
  const unplug = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  await listen();
  return {
    socketDir,
    unplug,
    plug: listen,
    close: async () => {
      if (server.listening) await unplug();
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}
