import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { bundleSchema, type Bundle } from '../../src/shared/wire';
import { getJson } from './helpers';

let stack: Stack;
let handle: string;

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 3, minReportsPerHandle: 3, maxReportsPerHandle: 5 } });
  const shelf = await getJson(`${stack.baseUrl}/api/intel/list`);
  handle = ((shelf.body['entries'] as { username: string }[])[1] ?? { username: '' }).username;
});
afterAll(async () => {
  await stack?.stop();
});

const bundleUrl = (name: string) => `${stack.baseUrl}/api/intel/bundle?username=${name}`;
const auth = () => ({ Authorization: `Bearer ${stack.librarySecret}` });

async function readBundle(name = handle): Promise<Bundle> {
  const { status, body } = await getJson(bundleUrl(name), auth());
  expect(status).toBe(200);
  return bundleSchema.parse(body);
}

async function putBundle(bundle: unknown, headers: Record<string, string> = auth()) {
  const response = await fetch(bundleUrl(handle), {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof bundle === 'string' ? bundle : JSON.stringify(bundle),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

describe('GET /api/intel/bundle', () => {
  it('returns the whole dossier to the library secret, by any spelling of the handle', async () => {
    const bundle = await readBundle(`@${handle.toUpperCase()}`);
    expect(bundle).toMatchObject({ v: 1, username: handle });
    expect(bundle.posts.length).toBeGreaterThan(0);
    const dates = bundle.reportHistory.map((r) => r.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('refuses a missing or wrong secret, and the X-Library-Secret header works too', async () => {
    const missing = await getJson(bundleUrl(handle));
    expect([missing.status, missing.body['error']]).toEqual([401, 'library_secret_required']);
    const wrong = await getJson(bundleUrl(handle), { 'X-Library-Secret': 'nope' });
    expect([wrong.status, wrong.body['error']]).toEqual([401, 'invalid_library_secret']);
    expect((await getJson(bundleUrl(handle), { 'X-Library-Secret': stack.librarySecret })).status).toBe(200);
    const unknown = await getJson(bundleUrl('nobody_here'), auth());
    expect([unknown.status, unknown.body['error']]).toEqual([404, 'unknown_handle']);
  });
});

describe('PUT /api/intel/bundle (last write wins on gatheredAt)', () => {
  it('writes a newer bundle and unions report histories by id, incoming winning', async () => {
    const stored = await readBundle();
    const [newest, ...rest] = stored.reportHistory;
    const edited = { ...newest!, model: 'edited-model' };
    const added = {
      ...newest!,
      id: `${newest!.id}_extra`,
      createdAt: later(newest!.createdAt, 1000),
      previousReportId: newest!.id,
    };
    const incoming = {
      ...stored,
      posts: [...stored.posts, { id: 'post_new', text: 'added by an editor' }],
      reportHistory: [edited, added],
      gatheredAt: later(stored.gatheredAt, 60_000),
    };
    const answer = await putBundle(incoming);
    expect(answer.status).toBe(200);
    expect(answer.body['written']).toBe(true);
    const after = await readBundle();
    expect(after.gatheredAt).toBe(incoming.gatheredAt);
    expect(after.posts.at(-1)).toEqual({ id: 'post_new', text: 'added by an editor' });
    expect(after.reportHistory.map((r) => r.id)).toEqual([added.id, edited.id, ...rest.map((r) => r.id)]);
    expect(after.reportHistory[1]?.model).toBe('edited-model');
  });

  it('writes nothing when the stored gatheredAt is the same or newer, and says so', async () => {
    const stored = await readBundle();
    for (const gatheredAt of [stored.gatheredAt, later(stored.gatheredAt, -1000)]) {
      const answer = await putBundle({ ...stored, posts: [], gatheredAt });
      expect(answer.status).toBe(200);
      expect(answer.body['written']).toBe(false);
    }
    expect(await readBundle()).toEqual(stored);
  });

  it('compares gatheredAt as instants, whatever the offset, and keeps the string as sent', async () => {
    const stored = await readBundle();
    const at = (ms: number) => new Date(Date.parse(stored.gatheredAt) + ms);
    // An hour older, but written with a +02:00 offset so that it sorts after the stored string.
    const older = at(-3_600_000);
    const olderWithOffset = `${new Date(older.getTime() + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
    expect(olderWithOffset > stored.gatheredAt).toBe(true);
    expect(Date.parse(olderWithOffset)).toBe(older.getTime());
    const refused = await putBundle({ ...stored, posts: [], gatheredAt: olderWithOffset });
    expect(refused.body['written']).toBe(false);
    expect(await readBundle()).toEqual(stored);
    // A minute newer, written with a -05:00 offset so that it sorts before the stored string.
    const newer = at(60_000);
    const newerWithOffset = `${new Date(newer.getTime() - 5 * 3_600_000).toISOString().slice(0, 19)}-05:00`;
    expect(newerWithOffset < stored.gatheredAt).toBe(true);
    const written = await putBundle({ ...stored, gatheredAt: newerWithOffset });
    expect(written.body['written']).toBe(true);
    expect((await readBundle()).gatheredAt).toBe(newerWithOffset);
  });

  it('rejects malformed bodies with a precise message', async () => {
    const stored = await readBundle();
    expect((await putBundle('{not json')).body['error']).toBe('invalid_json');
    const noPosts = await putBundle({ ...stored, posts: 'x', gatheredAt: later(stored.gatheredAt, 1) });
    expect([noPosts.status, noPosts.body['error']]).toEqual([400, 'invalid_bundle']);
    expect(String(noPosts.body['message'])).toContain('posts');
    const other = await putBundle({
      ...stored,
      username: 'someone_else',
      gatheredAt: later(stored.gatheredAt, 1),
    });
    expect(other.body['error']).toBe('username_mismatch');
    const unauthorised = await putBundle(stored, { Authorization: 'Bearer wrong' });
    expect(unauthorised.status).toBe(401);
  });
});
