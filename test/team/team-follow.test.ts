/**
 * An open window's desk follows its team: when another desk's purchase is published, the follower's library
 * holds the reports and its window is told ('library.changed') without anyone asking for a sync, and a
 * listening connection the server drops is opened again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskCore } from '../../src/core';
import { startStack, type Stack } from '../../src/service/stack';
import { deskWithWallet, firstHandle, tempDir } from '../core/helpers';
import { postgresBin, startCluster, type PgCluster } from '../../scripts/pg-cluster';
import { createTestTeam } from './team-helpers';

let stack: Stack;
let cluster: PgCluster;
const folders: { dir: string; remove(): void }[] = [];
const desks: DeskCore[] = [];

function folder(prefix: string): string {
  const made = tempDir(prefix);
  folders.push(made);
  return made.dir;
}

/** Resolves on the first 'library.changed' after which the follower's library holds every id. */
function libraryHolds(desk: DeskCore, ids: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    let told = 0;
    const off = desk.events.on((event) => {
      if (event.type !== 'library.changed') return;
      told++;
      desk.handlers['library.list']({}).then((page) => {
        const held = new Set(page.items.map((item) => item.id));
        if (ids.every((id) => held.has(id))) {
          off();
          resolve(told);
        }
      }, reject);
    });
  });
}

async function buy(desk: DeskCore, handle: string, ids: string[]) {
  const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids } });
  return desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount });
}

beforeAll(async () => {
  cluster = startCluster();
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 6, maxReportsPerHandle: 6 },
    buyerCount: 2,
    mining: 'auto',
  });
}, 120_000);
afterAll(async () => {
  for (const desk of desks) await desk.close().catch(() => undefined);
  for (const made of folders) made.remove();
  await stack?.stop();
  await cluster?.stop();
});

describe.skipIf(postgresBin() === null)('a window following its team', () => {
  it('pulls what another desk publishes at once, and listens again after the server drops it or restarts', async () => {
    const team = await createTestTeam(cluster, ['hana', 'ivo'], folder('desk-follow-admin-'));
    const buyer = await deskWithWallet(stack, folder('desk-follow-hana-'), 0, { timeoutMs: 5_000 });
    const follower = await deskWithWallet(stack, folder('desk-follow-ivo-'), 1, {
      timeoutMs: 5_000,
      followOtherWriters: true,
    });
    desks.push(buyer.desk, follower.desk);
    await buyer.desk.handlers['team.join']({ url: team.memberUrl('hana') });
    await follower.desk.handlers['team.join']({ url: team.memberUrl('ivo') });
    const { handle, ids } = await firstHandle(stack);

    const first = libraryHolds(follower.desk, ids.slice(0, 2));
    expect((await buy(buyer.desk, handle, ids.slice(0, 2))).status).toBe('completed');
    expect(await first).toBeGreaterThanOrEqual(1);
    const page = await follower.desk.handlers['library.list']({});
    expect(page.items.map((item) => item.id).sort()).toEqual(ids.slice(0, 2).sort());
    // Marked as the team's, with who bought them; the buyer's own copies, pulled back, stay its own.
    for (const item of page.items) expect(item.boughtBy?.analyst).toMatch(/^hana_/);
    await buyer.desk.handlers['team.sync']({});
    const own = await buyer.desk.handlers['library.list']({ limit: 10 });
    expect(own.items.map((item) => item.boughtBy)).toEqual([null, null]);
    const pulled = await follower.desk.handlers['report.get']({ id: ids[0]! });
    expect(pulled.boughtBy?.analyst).toMatch(/^hana_/);
    expect((await buyer.desk.handlers['report.get']({ id: ids[0]! })).boughtBy).toBeNull();

    // The server ends the follower's listening connection; it is opened again and misses nothing.
    const listening = await cluster.query(
      team.database,
      "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE query = 'LISTEN intel_desk_reports'",
    );
    expect(listening.rows).toHaveLength(1);
    const second = libraryHolds(follower.desk, ids.slice(2, 4));
    expect((await buy(buyer.desk, handle, ids.slice(2, 4))).status).toBe('completed');
    await second;

    // The server crashes and comes back: the follower listens again once it answers.
    cluster.crash();
    cluster.start();
    const third = libraryHolds(follower.desk, ids.slice(4, 6));
    expect((await buy(buyer.desk, handle, ids.slice(4, 6))).status).toBe('completed');
    await third;

    // Left, it listens no more.
    await follower.desk.handlers['team.leave']({});
    const after = await cluster.query(
      team.database,
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'LISTEN intel_desk_reports'",
    );
    expect(after.rows[0].n).toBe(0);
  }, 300_000);
});
