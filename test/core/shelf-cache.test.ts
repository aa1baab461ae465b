/**
 * The shelf is fetched and checked once: while the reference service answers 304 to its ETag, core serves the
 * copy it already checked; a change on the service is seen on the next call, and with the service down the
 * last-known copy is served, marked stale, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { deskFor, tempDir } from './helpers';
import { startFlakyProxy, type FlakyProxy } from './flaky-proxy';

let stack: Stack;
let service: FlakyProxy;

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 3, minReportsPerHandle: 2, maxReportsPerHandle: 2 } });
  service = await startFlakyProxy(stack.baseUrl);
});
afterAll(async () => {
  await service?.close();
  await stack?.stop();
});

describe('the shelf, fetched and checked once', () => {
  it('answers 304 to the ETag of the shelf a client already holds', async () => {
    const first = await fetch(`${stack.baseUrl}/api/intel/list`);
    const etag = first.headers.get('etag');
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    await first.arrayBuffer();
    const again = await fetch(`${stack.baseUrl}/api/intel/list`, { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves the checked copy while unchanged, sees a change, and falls back to it offline', async () => {
    const dir = tempDir('desk-shelf-cache-');
    let now = Date.parse('2026-11-23T10:00:00.000Z');
    const desk = await deskFor({ ...stack, baseUrl: service.url }, dir.dir, { now: () => now });
    try {
      const first = await desk.handlers['shelf.list']({});
      now += 60_000;
      const second = await desk.handlers['shelf.list']({});
      expect(second.entries).toEqual(first.entries);
      expect(second).toMatchObject({ stale: false, fetchedAt: '2026-11-23T10:01:00.000Z' });

      // Another editor writes a newer dossier: the shelf changes, and the next call shows it.
      const handle = first.entries[0]!.username;
      const auth = { Authorization: `Bearer ${stack.librarySecret}` };
      const bundleUrl = `${stack.baseUrl}/api/intel/bundle?username=${handle}`;
      const bundle = (await (await fetch(bundleUrl, { headers: auth })).json()) as Record<string, unknown>;
      const profile = { ...(bundle['profile'] as Record<string, unknown>), displayName: 'Renamed Person' };
      const put = await fetch(bundleUrl, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', ...auth },
        body: JSON.stringify({ ...bundle, profile, gatheredAt: '2099-01-01T00:00:00.000Z' }),
      });
      expect(put.status).toBe(200);
      now += 60_000;
      const third = await desk.handlers['shelf.list']({});
      expect(third.entries.find((entry) => entry.username === handle)?.displayName).toBe('Renamed Person');

      // Unchanged again (304), then the service goes away: the last-known copy, as last confirmed.
      now += 60_000;
      await desk.handlers['shelf.list']({});
      service.down();
      const offline = await desk.handlers['shelf.list']({});
      expect(offline).toMatchObject({ stale: true, fetchedAt: '2026-11-23T10:03:00.000Z' });
      expect(offline.entries).toEqual(third.entries);
    } finally {
      await service.up().catch(() => undefined);
      await desk.close();
      dir.remove();
    }
  });
});
