/**
 * The window's reader of the web host's event stream, against a real HTTP server on loopback: the token goes
 * in the header, a stream the host drops is opened again after the delay it asked for, and the window hears
 * that it may have missed changes meanwhile.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openEventStream } from '../../src/renderer/rpc/event-stream';
import { TOKEN_HEADER } from '../../src/shared/bridge';
import { EVENTS_PATH } from '../../src/shared/events';

let server: Server | null = null;
let stop: (() => void) | null = null;
afterEach(async () => {
  stop?.();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  }
  server = null;
});

describe('the event stream reader', () => {
  it('sends the token, reconnects after the host drops the stream, and says it resumed', async () => {
    const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
    server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      // The first stream ends after one event, as a host restarting would end it.
      if (seen.length === 1) {
        res.end('retry: 20\n\ndata: {"type":"library.changed"}\n\n');
      } else res.write('data: {"type":"wallet.changed"}\n\n');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const events: unknown[] = [];
    let resumed = 0;
    const heardBoth = new Promise<void>((resolve) => {
      stop = openEventStream({
        token: 'the-token',
        base,
        onEvent: (event) => {
          events.push(event);
          if (events.length === 2) resolve();
        },
        onResumed: () => (resumed += 1),
      });
    });
    await heardBoth;
    expect(events).toEqual([{ type: 'library.changed' }, { type: 'wallet.changed' }]);
    expect(resumed).toBe(1);
    expect(seen.map((s) => s.url)).toEqual([EVENTS_PATH, EVENTS_PATH]);
    expect(seen.every((s) => s.headers[TOKEN_HEADER] === 'the-token')).toBe(true);
  });
});
