/**
 * An address where nothing listens, for tests that need a service or proxy that cannot be reached: a loopback
 * port this process bound and closed again. A fixed port (9, "discard") may be open on some machines.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `http://127.0.0.1:<closed port>` followed by `suffix` (a path, or nothing). */
export async function closedPortUrl(suffix = ''): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}${suffix}`;
}
