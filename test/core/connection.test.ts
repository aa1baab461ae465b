/**
 * What the desk knows of the service's reachability (client/connection.ts), over real TCP to a server this
 * test stops and starts again on the same port: a change is told once each way, a probe while offline finds
 * the service back, and a failure stays known to "failed since", which the purchaser asks of a held quote.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceConnection } from '../../src/core/client/connection';

let server: Server | null = null;

async function listen(port = 0): Promise<number> {
  const started = createServer((_req, res) => res.end('{}'));
  await new Promise<void>((resolve, reject) => {
    started.once('error', reject);
    started.listen(port, '127.0.0.1', resolve);
  });
  server = started;
  return (started.address() as AddressInfo).port;
}

async function stop(): Promise<void> {
  const running = server;
  server = null;
  if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
}

afterEach(stop);

describe('the service connection', () => {
  it('tells each change once, probes while offline, and remembers when it failed', async () => {
    const port = await listen();
    let now = 1_000_000;
    const changes: boolean[] = [];
    let changed: (online: boolean) => void = () => undefined;
    const connection = new ServiceConnection(() => `http://127.0.0.1:${port}`, {
      now: () => now,
      onChange: (online) => {
        changes.push(online);
        changed(online);
      },
    });
    const quotedAt = now;
    await connection.client().probe();
    expect(connection.online).toBe(true);
    expect(changes).toEqual([]);

    await stop();
    now += 10;
    await expect(connection.client().probe()).rejects.toMatchObject({ code: 'service_unreachable' });
    expect(connection.online).toBe(false);
    expect(changes).toEqual([false]);
    expect(connection.failedSince(quotedAt)).toBe(true);

    await listen(port);
    now += 2_000;
    const back = new Promise<boolean>((resolve) => (changed = resolve));
    connection.checkAgain();
    expect(await back).toBe(true);
    expect(connection.online).toBe(true);
    expect(changes).toEqual([false, true]);
    // Back online, but a quote taken before the outage is still one to ask for again.
    expect(connection.failedSince(quotedAt)).toBe(true);
    expect(connection.failedSince(now)).toBe(false);
  });
});
