/**
 * Desks of one team in one test process, each its own data folder and wallet, against a real cluster, chain
 * and service: the team's daily cap held across desks buying at once with a purchase in doubt, that purchase
 * freed once the chain shows its authorization closed unused, a desk cut off from the team reading and
 * refusing to buy, a schema newer than the desk knows, and hostile URLs.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskCore } from '../../src/core';
import { startStack, type Stack } from '../../src/service/stack';
import { deskFor, deskWithWallet, failure, tempDir } from '../core/helpers';
import { startFlakyProxy, type FlakyProxy } from '../core/flaky-proxy';
import { anvilCall } from '../service/chain-time';
import { postgresBin, startCluster, type PgCluster } from '../../scripts/pg-cluster';
import { createTestTeam, type TestTeam } from './team-helpers';
import { startPgFaultProxy, type PgFaultProxy } from '../../scripts/chaos/pg-fault-proxy';

const UNIT = 10_000n;
let stack: Stack;
let cluster: PgCluster;
let flaky: FlakyProxy;
let handles: string[];
const folders: { dir: string; remove(): void }[] = [];
const desks: DeskCore[] = [];
const links: PgFaultProxy[] = [];

function folder(prefix: string): string {
  const made = tempDir(prefix);
  folders.push(made);
  return made.dir;
}

async function member(
  team: TestTeam,
  analyst: string,
  buyer: number,
  serviceUrl = stack.baseUrl,
  link: PgFaultProxy | null = null,
) {
  const dir = folder(`desk-team-${analyst}-`);
  const { desk } = await deskWithWallet({ ...stack, baseUrl: serviceUrl }, dir, buyer, { timeoutMs: 5_000 });
  desks.push(desk);
  const url = team.memberUrl(analyst);
  await desk.handlers['team.join']({
    url: link ? url.replace(/host=[^&]+/, `host=${encodeURIComponent(link.socketDir)}`) : url,
  });
  return { desk, dir };
}

async function buy(desk: DeskCore, handle: string, ids: string[]) {
  const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids } });
  return desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount });
}

/** Each report a desk holds as (service, report id, SHA-256 of the bytes the service sent), read from desk.db. */
function heldReports(dataDir: string): string[] {
  const db = new Database(path.join(dataDir, 'desk.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare<[], { service_url: string; id: string; raw_json: string }>(
        'SELECT service_url, id, raw_json FROM snapshots',
      )
      .all()
      .map(
        (row) =>
          `${row.service_url} ${row.id} ${createHash('sha256').update(row.raw_json, 'utf8').digest('hex')}`,
      );
  } finally {
    db.close();
  }
}

async function menuIds(handle: string): Promise<string[]> {
  const menu = (await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json()) as {
    reports: { id: string }[];
  };
  return menu.reports.map((report) => report.id);
}

beforeAll(async () => {
  cluster = startCluster();
  stack = await startStack({
    seed: { handles: 6, minReportsPerHandle: 6, maxReportsPerHandle: 6 },
    buyerCount: 3,
    mining: 'auto',
  });
  flaky = await startFlakyProxy(stack.baseUrl);
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handles = shelf.entries.map((entry) => entry.username);
}, 120_000);
afterAll(async () => {
  for (const desk of desks) await desk.close().catch(() => undefined);
  for (const link of links) await link.close();
  for (const made of folders) made.remove();
  await flaky?.close();
  await stack?.stop();
  await cluster?.stop();
});

describe.skipIf(postgresBin() === null)('a team of desks', () => {
  it('reads offline, refuses to buy while the team is unreachable, and catches up after', async () => {
    const team = await createTestTeam(cluster, ['dan', 'erin'], folder('desk-team-admin-'));
    const link = await startPgFaultProxy(cluster.socketDir);
    links.push(link);
    const dan = await member(team, 'dan', 0);
    const erin = await member(team, 'erin', 1, stack.baseUrl, link);
    const ids = await menuIds(handles[4]!);
    expect((await buy(dan.desk, handles[4]!, ids.slice(0, 2))).status).toBe('completed');
    // Dan's desk publishes in the background once the purchase ends; its sync waits for that.
    await dan.desk.handlers['team.sync']({});
    await erin.desk.handlers['team.sync']({});
    // Erin alone loses the team; dan goes on buying.
    link.down();
    expect((await buy(dan.desk, handles[4]!, ids.slice(2, 4))).status).toBe('completed');
    await dan.desk.handlers['team.sync']({});
    // Erin reads and searches what she pulled; buying moves no money.
    const library = await erin.desk.handlers['library.list']({});
    expect(library.items.map((item) => item.id).sort()).toEqual(ids.slice(0, 2).sort());
    // Spelled as the service spells the handle, as dan's own copies are, though erin never opened its menu.
    expect(new Set(library.items.map((item) => item.username))).toEqual(new Set([handles[4]]));
    const found = await erin.desk.handlers['library.search']({ text: 'posted', handle: handles[4]! });
    expect(found.hits.map((hit) => hit.id).sort()).toEqual(ids.slice(0, 2).sort());
    const refusal = await failure(buy(erin.desk, handles[4]!, ids.slice(4, 5)));
    expect(refusal.code).toBe('team_unreachable');
    expect(refusal.message).toMatch(/Nothing was signed/);
    expect(await erin.desk.handlers['team.status']({})).toMatchObject({ joined: true, reachable: false });
    link.up();
    await erin.desk.handlers['team.sync']({});
    // Erin holds what the team holds, byte for byte: the same (service, report id, SHA-256) set.
    const teamReports = await cluster.query(
      team.database,
      'SELECT service_url, report_id, sha256 FROM intel_desk.reports',
    );
    const teamSet = teamReports.rows.map(
      (row: { service_url: string; report_id: string; sha256: string }) =>
        `${row.service_url} ${row.report_id} ${row.sha256}`,
    );
    expect(teamSet).toHaveLength(4);
    expect(heldReports(erin.dir).sort()).toEqual(teamSet.sort());
  }, 300_000);

  it('reads but refuses to buy when the team schema is newer than this desk knows', async () => {
    const team = await createTestTeam(cluster, ['fay'], folder('desk-team-admin-'));
    const fay = await member(team, 'fay', 2);
    await cluster.query(
      team.database,
      "UPDATE intel_desk.meta SET value = '99' WHERE key = 'schema_version'",
    );
    const ids = await menuIds(handles[5]!);
    const refusal = await failure(buy(fay.desk, handles[5]!, ids.slice(0, 1)));
    expect(['team_schema_newer']).toContain(refusal.code);
  }, 120_000);

  it("claims a report once when two desks spell the service differently, and files it under each one's", async () => {
    const team = await createTestTeam(cluster, ['kim', 'lee'], folder('desk-team-admin-'));
    const kim = await member(team, 'kim', 0, `${stack.baseUrl.replace('http://', 'HTTP://')}/`);
    const lee = await member(team, 'lee', 1);
    const ids = await menuIds(handles[3]!);
    expect((await buy(kim.desk, handles[3]!, ids.slice(0, 1))).status).toBe('completed');
    await kim.desk.handlers['team.sync']({});
    const refusal = await failure(buy(lee.desk, handles[3]!, ids.slice(0, 1)));
    expect(refusal.code).toBe('team_owned');
    expect((await buy(lee.desk, handles[3]!, ids.slice(1, 2))).status).toBe('completed');
    await lee.desk.handlers['team.sync']({});
    await kim.desk.handlers['team.sync']({});
    // Each desk holds both under its own spelling of the service, so its library reads them as one service's.
    const kimItems = (await kim.desk.handlers['library.list']({})).items;
    expect(kimItems.map((item) => item.id).sort()).toEqual(ids.slice(0, 2).sort());
    expect(new Set(kimItems.map((item) => item.serviceUrl)).size).toBe(1);
    const leeItems = (await lee.desk.handlers['library.list']({})).items;
    expect(leeItems.map((item) => item.id).sort()).toEqual(ids.slice(0, 2).sort());
    expect(new Set(leeItems.map((item) => item.serviceUrl))).toEqual(new Set([stack.baseUrl]));
  }, 120_000);

  it('refuses a URL that is not PostgreSQL, a remote one without TLS, and a wrong password, changing nothing', async () => {
    const dir = folder('desk-team-bad-');
    const desk = await deskFor(stack, dir);
    desks.push(desk);
    expect((await failure(desk.handlers['team.join']({ url: 'https://example.com/db' }))).code).toBe(
      'team_url_invalid',
    );
    expect(
      (await failure(desk.handlers['team.join']({ url: 'postgresql://alice@db.example.com/research' }))).code,
    ).toBe('team_insecure');
    const team = await createTestTeam(cluster, ['gus'], folder('desk-team-admin-'));
    const wrong = team.memberUrl('gus').replace(/:pw-[^@]+@/, ':wrong@');
    expect((await failure(desk.handlers['team.join']({ url: wrong }))).code).toBe('team_auth_failed');
    expect(await desk.handlers['team.status']({})).toEqual({ joined: false });
  }, 120_000);
  // Last: it moves the chain's clock an hour on for good, which the others' purchases would see as skew.
  it('holds the team daily cap across three desks buying at once, with one purchase in doubt', async () => {
    // Room for five reports a day; a purchase in doubt holds one of them in full.
    const team = await createTestTeam(cluster, ['alice', 'bob', 'carol'], folder('desk-team-admin-'), [
      '--daily-cap',
      '0.05',
    ]);
    const alice = await member(team, 'alice', 0);
    const bob = await member(team, 'bob', 1);
    const carol = await member(team, 'carol', 2, flaky.url);
    const [first, second, third, fourth] = await Promise.all(handles.slice(0, 4).map(menuIds));
    const lostQuote = await carol.desk.handlers['quote.get']({
      handle: handles[0]!,
      selection: { kind: 'ids', ids: first!.slice(0, 1) },
    });
    // The paid request never reaches the service: carol cannot know whether it settled.
    flaky.mode = 'stall';
    const lost = await carol.desk.handlers['purchase.start']({
      quoteId: lostQuote.quoteId,
      confirmedAmount: lostQuote.amount,
    });
    flaky.mode = 'pass';
    expect(lost.status).toBe('in_doubt');

    const outcomes = await Promise.allSettled([
      buy(alice.desk, handles[1]!, second!.slice(0, 2)),
      buy(bob.desk, handles[2]!, third!.slice(0, 2)),
      buy(carol.desk, handles[3]!, fourth!.slice(0, 2)),
    ]);
    const paid = outcomes.filter((o) => o.status === 'fulfilled' && o.value.status === 'completed');
    const refusedOverCap = outcomes.filter(
      (o) => o.status === 'rejected' && (o.reason as { code?: string }).code === 'over_team_daily_cap',
    );
    expect(paid).toHaveLength(2);
    expect(refusedOverCap).toHaveLength(1);
    const committed = await cluster.query(
      team.database,
      "SELECT COALESCE(sum(amount), 0)::text AS total FROM intel_desk.purchases WHERE state IN ('reserved', 'paid', 'in_doubt')",
    );
    expect(BigInt(committed.rows[0].total)).toBe(5n * UNIT);

    // The lost payment's authorization closes unused on chain: carol's desk fails it, the team frees it.
    await anvilCall(stack, 'evm_increaseTime', [3600]);
    await anvilCall(stack, 'evm_mine');
    await carol.desk.handlers['purchases.reconcile']({});
    const synced = await carol.desk.handlers['team.sync']({});
    expect(synced.told).toBeGreaterThanOrEqual(1);
    const freed = await cluster.query(
      team.database,
      "SELECT COALESCE(sum(amount), 0)::text AS total FROM intel_desk.purchases WHERE state IN ('reserved', 'paid', 'in_doubt')",
    );
    expect(BigInt(freed.rows[0].total)).toBe(4n * UNIT);
    const claims = await cluster.query(team.database, 'SELECT report_id FROM intel_desk.claims');
    expect(claims.rows.map((row: { report_id: string }) => row.report_id)).not.toContain(first![0]);
  }, 300_000);
});
