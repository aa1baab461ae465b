/**
 * The web host's event stream (GET /events, server-sent events): real core in its worker, the reference
 * service and anvil, a real purchase, and the stream read over HTTP on loopback as the page reads it, with
 * the run token in the header. Without the token nothing is streamed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type ClientRequest } from 'node:http';
import { startStack, type Stack } from '../../src/service/stack';
import { startDeskHost, type DeskHost } from '../../src/host/desk-host';
import { TOKEN_HEADER } from '../../src/shared/bridge';
import { deskEventSchema, EVENTS_PATH, purchaseStepSchema, type DeskEvent } from '../../src/shared/events';
import { deskOptions, tempDir } from '../core/helpers';

let stack: Stack;
let desk: DeskHost;
const dir = tempDir('desk-events-');

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 2, maxReportsPerHandle: 2 },
    buyerCount: 1,
  });
  desk = await startDeskHost({
    core: deskOptions(stack, dir.dir),
    rendererDir: dir.dir,
    demoKey: stack.buyerKeys[0]! as `0x${string}`,
  });
});

afterAll(async () => {
  await desk?.close();
  await stack?.stop();
  dir.remove();
});

interface Stream {
  status: number;
  contentType: string;
  /** The stream's first field line (the reconnection delay). */
  first: Promise<string>;
  events: DeskEvent[];
  /** Resolves once an event matching `test` has arrived. */
  until(test: (event: DeskEvent) => boolean): Promise<void>;
  close(): void;
}

function openStream(headers: Record<string, string>): Promise<Stream> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | null = null;
    req = request(
      { host: '127.0.0.1', port: desk.host.port, path: EVENTS_PATH, method: 'GET', headers },
      (res) => {
        const events: DeskEvent[] = [];
        const waiting: { test: (e: DeskEvent) => boolean; done: () => void }[] = [];
        let buffer = '';
        let resolveFirst: (line: string) => void = () => undefined;
        const first = new Promise<string>((r) => (resolveFirst = r));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            resolveFirst(block);
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data: '))
              .map((line) => line.slice('data: '.length))
              .join('\n');
            if (!data) continue;
            const event = deskEventSchema.parse(JSON.parse(data));
            events.push(event);
            for (const w of waiting.filter((w) => w.test(event))) w.done();
          }
        });
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          first,
          events,
          until: (test) =>
            events.some(test) ? Promise.resolve() : new Promise((done) => waiting.push({ test, done })),
          close: () => req?.destroy(),
        });
      },
    );
    req.on('error', (error) => {
      if (!('code' in error && error.code === 'ECONNRESET')) reject(error);
    });
    req.end();
  });
}

const host = () => ({ Host: `127.0.0.1:${desk.host.port}` });

describe('the web host’s event stream', () => {
  it('streams nothing without the run token', async () => {
    for (const headers of [host(), { ...host(), [TOKEN_HEADER]: 'not-the-token' }]) {
      const stream = await openStream(headers);
      expect(stream.status).toBe(401);
      stream.close();
    }
  });

  it('sends each step of a real purchase, then that the library and purchases changed', async () => {
    const stream = await openStream({ ...host(), [TOKEN_HEADER]: desk.host.token });
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    expect(await stream.first).toMatch(/^retry: \d+$/);

    const handle = (await desk.core.handlers['shelf.list']({})).entries[0]!.username;
    const quote = await desk.core.handlers['quote.get']({ handle, selection: { kind: 'all' } });
    const outcome = await desk.core.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(outcome.status).toBe('completed');
    await stream.until((e) => e.type === 'library.changed');
    await stream.until((e) => e.type === 'purchases.changed');
    await stream.until((e) => e.type === 'purchase.step' && e.step === 'completed');

    const steps = stream.events.filter((e) => e.type === 'purchase.step');
    // Every step from signing to completed, in the order the contract lists them.
    const order = purchaseStepSchema.options;
    expect(steps.map((e) => e.step)).toEqual(
      order.slice(order.indexOf('signing'), order.indexOf('completed') + 1),
    );
    // The window follows the purchase it started by the quote it confirmed.
    expect(new Set(steps.map((e) => e.quoteId))).toEqual(new Set([quote.quoteId]));
    if (outcome.status === 'completed')
      expect(new Set(steps.map((e) => e.purchaseId))).toEqual(new Set([outcome.purchase.id]));
    stream.close();
  });
});
