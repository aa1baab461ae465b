/**
 * A window refetches the team's status whenever its settings or purchases change, from several screens at
 * once: a status read a moment ago is answered again without a round trip to PostgreSQL, counted at a proxy
 * in front of the server's socket. Once it is older than STATUS_FRESH_MS (by the desk's clock), or this
 * desk reserves for the team, the next status asks the database again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskCore } from '../../src/core';
import { startStack, type Stack } from '../../src/service/stack';
import { STATUS_FRESH_MS } from '../../src/core/team/team-desk';
import { deskWithWallet, firstHandle, tempDir } from '../core/helpers';
import { postgresBin, startCluster, type PgCluster } from '../../scripts/pg-cluster';
import { startPgFaultProxy, type PgFaultProxy } from '../../scripts/chaos/pg-fault-proxy';
import { createTestTeam } from './team-helpers';

const runs = postgresBin() !== null;
let stack: Stack;
let cluster: PgCluster;
let proxy: PgFaultProxy;
let desk: DeskCore;
// The desk's clock, moved on by the test; it starts at the real time, which the chain and service share.
let clock = Date.now();
const folders: { dir: string; remove(): void }[] = [];

function folder(prefix: string): string {
  const made = tempDir(prefix);
  folders.push(made);
  return made.dir;
}

/** The status query alone names this column. */
const statusQueries = () => proxy.statements('AS spent_today');

beforeAll(async () => {
  if (!runs) return;
  cluster = startCluster();
  proxy = await startPgFaultProxy(cluster.socketDir);
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 2, maxReportsPerHandle: 2 },
    buyerCount: 1,
    mining: 'auto',
  });
  const team = await createTestTeam(cluster, ['kim'], folder('desk-team-status-admin-'));
  ({ desk } = await deskWithWallet(stack, folder('desk-team-status-kim-'), 0, { now: () => clock }));
  const url = team
    .memberUrl('kim')
    .replace(encodeURIComponent(cluster.socketDir), encodeURIComponent(proxy.socketDir));
  await desk.handlers['team.join']({ url });
}, 120_000);
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await stack?.stop();
  await cluster?.stop();
  for (const made of folders) made.remove();
});

describe.skipIf(!runs)("the team's status in a window", () => {
  it('asks the database once for a burst of refetches, and again once it is stale', async () => {
    clock += STATUS_FRESH_MS;
    const before = statusQueries();
    const views = await Promise.all([1, 2, 3].map(() => desk.handlers['team.status']({})));
    for (let i = 0; i < 5; i++) views.push(await desk.handlers['team.status']({}));
    expect(statusQueries() - before).toBe(1);
    for (const view of views)
      expect(view).toMatchObject({ joined: true, reachable: true, caps: { spentToday: '0' } });
    // The same view each time: read at the one moment it was asked.
    expect(new Set(views.map((view) => (view.joined ? view.capsAt : null))).size).toBe(1);

    clock += STATUS_FRESH_MS;
    await desk.handlers['team.status']({});
    expect(statusQueries() - before).toBe(2);
  });

  it("asks again after this desk's own purchase, so its spend shows at once", async () => {
    clock += STATUS_FRESH_MS;
    await desk.handlers['team.status']({});
    const before = statusQueries();
    const { handle, ids } = await firstHandle(stack);
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [ids[0]!] } });
    const bought = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(bought.status).toBe('completed');
    const view = await desk.handlers['team.status']({});
    expect(statusQueries() - before).toBe(1);
    expect(view).toMatchObject({ reachable: true, caps: { spentToday: quote.amount } });
  });
});
