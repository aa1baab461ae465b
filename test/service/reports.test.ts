import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import {
  paymentChallengeSchema,
  paidSuccessSchema,
  reportMenuSchema,
  type ReportMenu,
} from '../../src/shared/wire';
import { getJson } from './helpers';

let stack: Stack;
let handle: string;
let menu: ReportMenu;

beforeAll(async () => {
  stack = await startStack({ seed: { handles: 6, minReportsPerHandle: 8, maxReportsPerHandle: 12 } });
  const shelf = await getJson(`${stack.baseUrl}/api/intel/list`);
  handle = ((shelf.body['entries'] as { username: string }[])[0] ?? { username: '' }).username;
  menu = reportMenuSchema.parse(
    (await getJson(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).body,
  );
});
afterAll(async () => {
  await stack?.stop();
});

const reportsUrl = (query: string) => `${stack.baseUrl}/api/intel/reports?${query}`;

async function challengeCount(query: string): Promise<number> {
  const { status, body } = await getJson(reportsUrl(query));
  expect(status).toBe(402);
  const count = paymentChallengeSchema.parse(body).extensions?.reportCount;
  if (count === undefined) throw new Error('the reference service states the report count');
  return count;
}

async function secretRead(query: string): Promise<string[]> {
  const { status, body } = await getJson(reportsUrl(query), {
    Authorization: `Bearer ${stack.librarySecret}`,
  });
  expect(status).toBe(200);
  return paidSuccessSchema.parse(body).reports.map((r) => r.id);
}

describe('shelf and menu', () => {
  it('lists every seeded handle with the shelf-entry fields and a short shared cache', async () => {
    const { status, body, headers } = await getJson(`${stack.baseUrl}/api/intel/list`);
    expect(status).toBe(200);
    expect(body['configured']).toBe(true);
    const entries = body['entries'] as Record<string, unknown>[];
    expect(entries).toHaveLength(6);
    expect(Object.keys(entries[0] ?? {})).toEqual(
      expect.arrayContaining([
        'username',
        'displayName',
        'avatarUrl',
        'followers',
        'postCount',
        'reportCount',
        'gatheredAt',
      ]),
    );
    expect(headers.get('cache-control')).toBe('public, max-age=30');
  });

  it('serves the menu newest first, with the baseline report last', async () => {
    const dates = menu.reports.map((r) => r.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(menu.reportCount).toBe(menu.reports.length);
    const [baseline] = (
      await getJson(reportsUrl(`username=${handle}&select=range&ids=${menu.reports.at(-1)?.id}`), {
        Authorization: `Bearer ${stack.librarySecret}`,
      })
    ).body['reports'] as Record<string, unknown>[];
    expect(baseline?.['changeSummary']).toBeNull();
    expect(baseline?.['previousReportId']).toBeNull();
  });

  it('finds a handle whatever its case and with a leading @', async () => {
    for (const variant of [
      handle.toUpperCase(),
      handle.toLowerCase(),
      `@${handle}`,
      `%40${handle.toUpperCase()}`,
    ]) {
      const { status, body } = await getJson(reportsUrl(`username=${variant}`));
      expect(status, variant).toBe(200);
      expect(body['username']).toBe(handle);
    }
    expect(await challengeCount(`username=@${handle.toUpperCase()}&select=all`)).toBe(menu.reportCount);
    const mixed = handle
      .split('')
      .map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase()))
      .join('');
    const paid = await getJson(reportsUrl(`username=%40${mixed}&select=range&ids=${menu.reports[0]!.id}`), {
      'X-Library-Secret': stack.librarySecret,
    });
    expect(paidSuccessSchema.parse(paid.body)).toMatchObject({ username: handle, reportCount: 1 });
  });

  it('answers a missing, malformed or unknown username clearly', async () => {
    for (const query of ['', 'username=', 'username=%20', 'select=all', 'select=range&ids=x', 'username=@']) {
      const missing = await getJson(reportsUrl(query));
      const expected = query === 'username=@' ? 'invalid_username' : 'missing_username';
      expect([missing.status, missing.body['error']], query).toEqual([400, expected]);
      expect(typeof missing.body['message'], query).toBe('string');
    }
    for (const name of ['a b', 'x'.repeat(65), '@@ada', 'ada;drop', '..%2F..']) {
      const malformed = await getJson(reportsUrl(`username=${encodeURIComponent(name)}&select=all`));
      expect([malformed.status, malformed.body['error']], name).toEqual([400, 'invalid_username']);
    }
    const bad = await getJson(reportsUrl('username=<script>'));
    expect([bad.status, bad.body['error']]).toEqual([400, 'invalid_username']);
    const unknown = await getJson(reportsUrl('username=nobody_here'));
    expect([unknown.status, unknown.body['error']]).toEqual([404, 'unknown_handle']);
    const select = await getJson(reportsUrl(`username=${handle}&select=some`));
    expect([select.status, select.body['error']]).toEqual([400, 'invalid_select']);
  });

  it('answers other paths and methods with JSON errors', async () => {
    const missing = await getJson(`${stack.baseUrl}/api/nothing`);
    expect([missing.status, missing.body['error']]).toEqual([404, 'not_found']);
    const post = await fetch(`${stack.baseUrl}/api/intel/list`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(((await post.json()) as Record<string, unknown>)['error']).toBe('method_not_allowed');
  });
});

describe('range selection (inclusive bounds; ids and from/to intersect)', () => {
  it('requires from, to or ids', async () => {
    const { status, body } = await getJson(reportsUrl(`username=${handle}&select=range`));
    expect([status, body['error']]).toEqual([400, 'range_requires_from_to_or_ids']);
    const emptyIds = await getJson(reportsUrl(`username=${handle}&select=range&ids=,`));
    expect(emptyIds.body['error']).toBe('range_requires_from_to_or_ids');
  });

  it('treats from and to as inclusive bounds on createdAt', async () => {
    const newest = menu.reports[0]!;
    const third = menu.reports[2]!;
    const ids = await secretRead(
      `username=${handle}&select=range&from=${third.createdAt}&to=${newest.createdAt}`,
    );
    expect(ids).toEqual(menu.reports.slice(0, 3).map((r) => r.id));
    expect(await challengeCount(`username=${handle}&select=range&from=${third.createdAt}`)).toBe(3);
    expect(await challengeCount(`username=${handle}&select=range&to=${third.createdAt}`)).toBe(
      menu.reportCount - 2,
    );
  });

  it('selects by ids, ignoring unknown ones', async () => {
    const wanted = [menu.reports[1]!.id, menu.reports[4]!.id, 'rpt_unknown'];
    expect(await secretRead(`username=${handle}&select=range&ids=${wanted.join(',')}`)).toEqual(
      wanted.slice(0, 2),
    );
  });

  it('intersects ids with from/to', async () => {
    const newest = menu.reports[0]!;
    const older = menu.reports[5]!;
    const query = `username=${handle}&select=range&ids=${newest.id},${older.id}&from=${menu.reports[2]!.createdAt}`;
    expect(await secretRead(query)).toEqual([newest.id]);
    expect(await challengeCount(query)).toBe(1);
  });

  it('intersects ids with both bounds, trims spaces and counts a repeated id once', async () => {
    const [r0, r1, r2, r3, r4] = menu.reports;
    const between = `from=${r3!.createdAt}&to=${r1!.createdAt}`;
    const query = `username=${handle}&select=range&ids=${r0!.id},%20${r2!.id}%20,${r4!.id},${r2!.id}&${between}`;
    expect(await secretRead(query)).toEqual([r2!.id]);
    expect(await challengeCount(query)).toBe(1);
    expect(await challengeCount(`username=${handle}&select=range&${between}`)).toBe(3);
    expect(await challengeCount(`username=${handle}&select=range&ids=${r1!.id},${r1!.id},${r1!.id}`)).toBe(1);
  });

  it("never sells another handle's report by id", async () => {
    const shelf = await getJson(`${stack.baseUrl}/api/intel/list`);
    const other = (shelf.body['entries'] as { username: string }[])[1]!.username;
    const otherMenu = reportMenuSchema.parse((await getJson(reportsUrl(`username=${other}`))).body);
    const foreign = otherMenu.reports[0]!.id;
    const alone = await getJson(reportsUrl(`username=${handle}&select=range&ids=${foreign}`));
    expect([alone.status, alone.body['error']]).toEqual([404, 'no_matching_reports']);
    const mixed = `username=${handle}&select=range&ids=${foreign},${menu.reports[0]!.id}`;
    expect(await secretRead(mixed)).toEqual([menu.reports[0]!.id]);
    expect(await challengeCount(mixed)).toBe(1);
  });

  it('answers 404 no_matching_reports when nothing matches', async () => {
    for (const query of [
      `ids=rpt_nope`,
      `from=2999-01-01`,
      `to=1999-01-01`,
      `ids=${menu.reports[0]!.id}&to=1999-01-01`,
      `from=${menu.reports[0]!.createdAt}&to=${menu.reports.at(-1)!.createdAt}`,
    ]) {
      const { status, body } = await getJson(reportsUrl(`username=${handle}&select=range&${query}`));
      expect([status, body['error']], query).toEqual([404, 'no_matching_reports']);
    }
  });
});

describe('the 402 challenge', () => {
  it('has every field of spec 2.4 plus the standard x402 fields, also in PAYMENT-REQUIRED', async () => {
    const { status, body, headers } = await getJson(reportsUrl(`username=${handle}&select=all`));
    expect(status).toBe(402);
    const challenge = paymentChallengeSchema.parse(body);
    expect(challenge).toMatchObject({ x402Version: 2, error: 'Payment required' });
    expect(challenge.accepts[0]).toMatchObject({
      protocol: 'x402',
      version: 2,
      scheme: 'exact',
      network: 'eip155:31337',
      asset: stack.asset,
      payTo: stack.payTo,
      amount: String(10_000 * menu.reportCount),
      maxTimeoutSeconds: 300,
      extra: { name: 'USD Coin', version: '2' },
    });
    expect(challenge.extensions).toEqual({
      chainId: 31337,
      tokenDecimals: 6,
      unitPriceUsd: 0.01,
      reportCount: menu.reportCount,
      select: 'all',
      resource: `/api/intel/reports?username=${handle}&select=all`,
      'payment-identifier': {
        info: { required: false },
        schema: expect.objectContaining({ type: 'object' }),
      },
      // A wallet that bought this selection reads it again free by signing in (sign-in.test.ts).
      'sign-in-with-x': {
        info: expect.objectContaining({
          domain: new URL(stack.baseUrl).host,
          uri: `${stack.baseUrl}/api/intel/reports?username=${handle}&select=all`,
          version: '1',
          nonce: expect.stringMatching(/^[0-9a-f]{64}$/),
        }),
        supportedChains: [{ chainId: 'eip155:31337', type: 'eip191' }],
        schema: expect.objectContaining({ type: 'object' }),
      },
    });
    const header = JSON.parse(Buffer.from(headers.get('payment-required') ?? '', 'base64').toString('utf8'));
    expect(header).toEqual(body);
  });
});

describe('the library secret (spec 5.8)', () => {
  it('opens paid routes without payment, as a bearer token or X-Library-Secret', async () => {
    const bearer = await getJson(reportsUrl(`username=${handle}&select=all`), {
      Authorization: `Bearer ${stack.librarySecret}`,
    });
    expect(bearer.status).toBe(200);
    expect(bearer.body['chargedUsd']).toBeUndefined();
    const header = await getJson(reportsUrl(`username=${handle}&select=all`), {
      'X-Library-Secret': stack.librarySecret,
    });
    expect(header.body['reportCount']).toBe(menu.reportCount);
  });

  it('refuses a wrong secret instead of falling back to a challenge', async () => {
    const { status, body } = await getJson(reportsUrl(`username=${handle}&select=all`), {
      Authorization: 'Bearer wrong',
    });
    expect([status, body['error']]).toEqual([401, 'invalid_library_secret']);
  });
});
