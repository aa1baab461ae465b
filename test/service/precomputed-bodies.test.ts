/**
 * The free routes answer with bodies encoded once: each carries a strong ETag (304 to a client that holds it),
 * and a write to the store (a new report, a new handle) gives the shelf and the changed menu new bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { bundleSchema, reportMenuSchema, shelfListSchema, type Bundle } from '../../src/shared/wire';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 4, minReportsPerHandle: 2, maxReportsPerHandle: 3 } });
});
afterAll(async () => {
  await stack?.stop();
});

async function get(path: string, etag?: string) {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    headers: etag ? { 'If-None-Match': etag } : {},
  });
  return { status: response.status, etag: response.headers.get('etag'), text: await response.text() };
}

async function putBundle(bundle: Bundle): Promise<void> {
  const response = await fetch(`${stack.baseUrl}/api/intel/bundle?username=${bundle.username}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${stack.librarySecret}` },
    body: JSON.stringify(bundle),
  });
  expect(response.status).toBe(200);
}

describe('precomputed shelf and menu bodies', () => {
  it('tag each body, answer 304 to that tag, and change when a report or a handle is added', async () => {
    const shelf = await get('/api/intel/list');
    const handle = shelfListSchema.parse(JSON.parse(shelf.text)).entries[0]!.username;
    const menuPath = `/api/intel/reports?username=${handle}`;
    const menu = await get(menuPath);
    expect(shelf.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(menu.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(menu.etag).not.toBe(shelf.etag);
    expect(await get('/api/intel/list', shelf.etag!)).toMatchObject({ status: 304, text: '' });
    expect(await get(menuPath, menu.etag!)).toMatchObject({ status: 304, text: '' });
    // Asked again, the same bytes and the same tag.
    expect(await get(menuPath)).toEqual(menu);

    // A new report for the handle: its menu and the shelf (its report count) change.
    const auth = { Authorization: `Bearer ${stack.librarySecret}` };
    const stored = bundleSchema.parse(
      await (await fetch(`${stack.baseUrl}/api/intel/bundle?username=${handle}`, { headers: auth })).json(),
    );
    const latest = stored.reportHistory[0]!;
    const added = { ...latest, id: `${latest.id}-added`, createdAt: '2099-01-01T00:00:00.000Z' };
    await putBundle({
      ...stored,
      reportHistory: [added, ...stored.reportHistory],
      gatheredAt: '2099-01-01T00:00:00.000Z',
    });
    const menuAfter = await get(menuPath, menu.etag!);
    expect(menuAfter.status).toBe(200);
    expect(menuAfter.etag).not.toBe(menu.etag);
    const reports = reportMenuSchema.parse(JSON.parse(menuAfter.text)).reports;
    expect(reports[0]!.id).toBe(added.id);
    const shelfAfter = await get('/api/intel/list', shelf.etag!);
    expect(shelfAfter.status).toBe(200);
    const entry = shelfListSchema
      .parse(JSON.parse(shelfAfter.text))
      .entries.find((e) => e.username === handle);
    expect(entry?.reportCount).toBe(reports.length);

    // A new handle: on the next shelf, with a new tag again; the other menus are unchanged.
    await putBundle({
      ...stored,
      username: 'freshly_added',
      reportHistory: [],
      gatheredAt: '2099-02-01T00:00:00.000Z',
    });
    const shelfLast = await get('/api/intel/list', shelfAfter.etag!);
    expect(shelfLast.status).toBe(200);
    const usernames = shelfListSchema.parse(JSON.parse(shelfLast.text)).entries.map((e) => e.username);
    expect(usernames).toContain('freshly_added');
    expect(await get(menuPath, menuAfter.etag!)).toMatchObject({ status: 304 });
  });
});
