/**
 * The quote of a desk in a team says what Buy would meet before anything is signed: reports a colleague paid
 * for are owned by the team (with who bought them), reports a colleague holds a reservation for are being
 * bought, the rest are free; a team that does not answer leaves the price standing with a note that buying
 * needs it. Two desks against a real cluster, chain and service.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { privateKeyToAccount } from 'viem/accounts';
import type { DeskCore } from '../../src/core';
import { startStack, type Stack } from '../../src/service/stack';
import { balanceOf, deskWithWallet, failure, firstHandle, ledgerRows, tempDir } from '../core/helpers';
import { postgresBin, startCluster, type PgCluster } from '../../scripts/pg-cluster';
import { createTestTeam, type TestTeam } from './team-helpers';
import { runCli, stackEnv } from '../cli/run-cli';

let stack: Stack;
let cluster: PgCluster;
let team: TestTeam;
let alice: { desk: DeskCore; dir: string };
let bob: { desk: DeskCore; dir: string };
let handle: string;
let ids: string[];
const folders: { dir: string; remove(): void }[] = [];

function folder(prefix: string): string {
  const made = tempDir(prefix);
  folders.push(made);
  return made.dir;
}

async function member(analyst: string, buyer: number) {
  const dir = folder(`desk-team-quote-${analyst}-`);
  const { desk } = await deskWithWallet(stack, dir, buyer, { timeoutMs: 5_000 });
  await desk.handlers['team.join']({ url: team.memberUrl(analyst) });
  return { desk, dir };
}

const quoteOf = (desk: DeskCore, chosen: string[]) =>
  desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: chosen } });

const runs = postgresBin() !== null;

beforeAll(async () => {
  if (!runs) return;
  cluster = startCluster();
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 6, maxReportsPerHandle: 6 },
    buyerCount: 2,
    mining: 'auto',
  });
  ({ handle, ids } = await firstHandle(stack));
  team = await createTestTeam(cluster, ['alice', 'bob'], folder('desk-team-quote-admin-'));
  alice = await member('alice', 0);
  bob = await member('bob', 1);
}, 180_000);
afterAll(async () => {
  for (const desk of [alice?.desk, bob?.desk]) await desk?.close().catch(() => undefined);
  for (const made of folders) made.remove();
  await stack?.stop();
  await cluster?.stop();
});

describe.skipIf(!runs)('a quote in a team', () => {
  it('is free of the team for reports nobody claimed, and null outside a team', async () => {
    const quote = await quoteOf(alice.desk, ids.slice(0, 2));
    expect(quote.team).toEqual({ reachable: true, reports: [], free: 2, refusal: null });
    const loner = await deskWithWallet(stack, folder('desk-team-quote-loner-'), 0);
    try {
      expect((await quoteOf(loner.desk, ids.slice(0, 2))).team).toBeNull();
    } finally {
      await loner.desk.close();
    }
  });

  it('marks reports a colleague bought as owned by the team, and Buy is refused before signing', async () => {
    const bobs = await quoteOf(bob.desk, ids.slice(0, 2));
    const bought = await bob.desk.handlers['purchase.start']({
      quoteId: bobs.quoteId,
      confirmedAmount: bobs.amount,
    });
    expect(bought.status).toBe('completed');
    // Bob's desk tells the team in the background; its sync waits for that.
    await bob.desk.handlers['team.sync']({});
    const quote = await quoteOf(alice.desk, ids.slice(0, 3));
    expect(quote.reportCount).toBe(3);
    expect(quote.team).toMatchObject({ reachable: true, free: 1 });
    if (!quote.team?.reachable) throw new Error('unreachable');
    const marks = [...quote.team.reports].sort((a, b) => a.id.localeCompare(b.id));
    expect(marks).toEqual(
      ids
        .slice(0, 2)
        .sort()
        .map((id) => ({
          id,
          state: 'owned',
          analyst: expect.stringMatching(/^bob_/),
          deskId: expect.any(String),
        })),
    );
    expect(quote.team.refusal?.code).toBe('team_owned');
    expect(quote.team.refusal?.message).toMatch(/^The team already owns 2 of these reports, bought by bob_/);

    // `intel-desk quote` says so too, on the same data folder.
    const cli = await runCli(
      ['quote', handle, '--ids', ids.slice(0, 3).join(',')],
      stackEnv(stack, alice.dir),
    );
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(
      /^team: buying these now would be refused: The team already owns 2 of these reports, bought by bob_.*intel-desk team sync/m,
    );

    // What the quote said is what Buy meets: nothing signed, no money moved.
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const before = await balanceOf(stack, payer);
    const refusal = await failure(
      alice.desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
    );
    expect(refusal.code).toBe('team_owned');
    expect(ledgerRows(alice.dir)).toEqual([]);
    expect(await balanceOf(stack, payer)).toBe(before);

    // After a sync the team's reports are in the library, and the price leaves them out.
    await alice.desk.handlers['team.sync']({});
    const after = await quoteOf(alice.desk, ids.slice(0, 3));
    expect(after).toMatchObject({ reportCount: 1, ownedCount: 2 });
    expect(after.team).toEqual({ reachable: true, reports: [], free: 1, refusal: null });
  }, 120_000);

  it('marks reports a colleague holds a reservation for as being bought, by whom', async () => {
    // Bob's desk holds the team's reservation of two reports and has not signed or finished yet.
    const client = new pg.Client({ connectionString: team.memberUrl('bob') });
    await client.connect();
    try {
      await client.query(
        `SELECT intel_desk.reserve_purchase($1, $2, $3, $4, 20000, 'eip155:31337', '0x0', '0x0', $5,
           now() + interval '1 hour', 'bob-desk', 'bob', false, false)`,
        [randomUUID(), stack.baseUrl, handle, ids.slice(3, 5), randomUUID()],
      );
    } finally {
      await client.end();
    }
    const quote = await quoteOf(alice.desk, ids.slice(2, 6));
    if (!quote.team?.reachable) throw new Error('unreachable');
    expect(quote.team.free).toBe(2);
    expect(quote.team.reports.map((mark) => [mark.id, mark.state, mark.analyst, mark.deskId]).sort()).toEqual(
      ids
        .slice(3, 5)
        .map((id) => [id, 'in_progress', 'bob', 'bob-desk'])
        .sort(),
    );
    expect(quote.team.refusal).toEqual({
      code: 'team_in_progress',
      message: expect.stringMatching(/^bob \(desk bob-desk\) is buying 2 of these reports/),
    });
    // The dry run held nothing: only bob's reservation is there.
    const rows = await cluster.query(team.database, 'SELECT count(*)::int AS n FROM intel_desk.purchases');
    expect(rows.rows[0].n).toBe(2);
  });

  it('still shows the price when the team is unreachable, saying buying needs it', async () => {
    cluster.crash();
    try {
      const quote = await quoteOf(alice.desk, [ids[5]!]);
      expect(quote.reportCount).toBe(1);
      expect(BigInt(quote.amount)).toBeGreaterThan(0n);
      expect(quote.team).toMatchObject({
        reachable: false,
        code: 'team_unreachable',
        reason: expect.stringMatching(/^The team database/),
      });
    } finally {
      cluster.start();
    }
  });

  it('says buying needs the team when its schema is newer than this desk knows', async () => {
    const version = "UPDATE intel_desk.meta SET value = $1 WHERE key = 'schema_version'";
    await cluster.query(team.database, version, ['99']);
    try {
      const quote = await quoteOf(alice.desk, [ids[5]!]);
      expect(quote.reportCount).toBe(1);
      expect(quote.team).toMatchObject({ reachable: false, code: 'team_schema_newer' });
    } finally {
      await cluster.query(team.database, version, ['1']);
    }
  });
});
