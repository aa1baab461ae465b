/**
 * The team database's answers lost on the way, through a fault proxy in front of its socket: the server acted,
 * the desk never heard. The answer to the reservation cut: nothing is signed, and the reservation the server
 * kept is released at the next sync. The answer to the purchase's end cut: the purchase completes on the desk,
 * and the team learns it, reports included, at the next sync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskCore } from '../../src/core';
import { startStack, type Stack } from '../../src/service/stack';
import { settlementsOnChain } from '../../scripts/chaos/chain';
import { deskWithWallet, failure, firstHandle, ledgerRows, tempDir } from '../core/helpers';
import { postgresBin, startCluster, type PgCluster } from '../../scripts/pg-cluster';
import { startPgFaultProxy, type PgFaultProxy } from '../../scripts/chaos/pg-fault-proxy';
import { createTestTeam, type TestTeam } from './team-helpers';

let stack: Stack;
let cluster: PgCluster;
let proxy: PgFaultProxy;
let team: TestTeam;
let desk: DeskCore;
let handle: string;
let ids: string[];
const folders: { dir: string; remove(): void }[] = [];

function folder(prefix: string): string {
  const made = tempDir(prefix);
  folders.push(made);
  return made.dir;
}

async function teamRows(): Promise<{ state: string; claims: number }[]> {
  const result = await cluster.query(
    team.database,
    `SELECT p.state, (SELECT count(*) FROM intel_desk.claims c WHERE c.purchase_id = p.purchase_id)::int AS claims
     FROM intel_desk.purchases p ORDER BY p.created_at`,
  );
  return result.rows as { state: string; claims: number }[];
}

beforeAll(async () => {
  if (postgresBin() === null) return;
  cluster = startCluster();
  proxy = await startPgFaultProxy(cluster.socketDir);
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    buyerCount: 1,
    mining: 'auto',
  });
  ({ handle, ids } = await firstHandle(stack));
  team = await createTestTeam(cluster, ['ivy'], folder('desk-team-admin-'));
  const dataDir = folder('desk-team-ivy-');
  ({ desk } = await deskWithWallet(stack, dataDir, 0));
  const url = team
    .memberUrl('ivy')
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

async function quote(selected: string[]) {
  return desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: selected } });
}

describe.skipIf(postgresBin() === null)('the team database answers, and the answer is lost', () => {
  it('to the reservation: nothing is signed, and the next sync releases what the server kept', async () => {
    const settledBefore = (await settlementsOnChain(stack.chain)).length;
    const priced = await quote(ids.slice(0, 2));
    proxy.cutAnswerTo('reserve_purchase');
    const refusal = await failure(
      desk.handlers['purchase.start']({ quoteId: priced.quoteId, confirmedAmount: priced.amount }),
    );
    expect(proxy.cuts).toBe(1);
    expect(refusal.code).toBe('team_unreachable');
    expect(refusal.message).toMatch(/Nothing was signed or paid/);
    // The server did reserve: its row and claims stand, though the desk never heard.
    expect(await teamRows()).toEqual([{ state: 'reserved', claims: 2 }]);
    expect((await settlementsOnChain(stack.chain)).length).toBe(settledBefore);
    expect(ledgerRows(folders[1]!.dir)).toEqual([]);

    const synced = await desk.handlers['team.sync']({});
    expect(synced.told).toBe(1);
    expect(await teamRows()).toEqual([{ state: 'failed', claims: 0 }]);
    // The reports are free again: the same selection is bought once, for real.
    const again = await quote(ids.slice(0, 2));
    const outcome = await desk.handlers['purchase.start']({
      quoteId: again.quoteId,
      confirmedAmount: again.amount,
    });
    expect(outcome.status).toBe('completed');
    await desk.handlers['team.sync']({});
    expect((await teamRows()).map((row) => row.state)).toEqual(['failed', 'paid']);
  }, 120_000);

  it("to the purchase's end: it completes here, and the team learns it with its reports at the next sync", async () => {
    const priced = await quote(ids.slice(2, 4));
    proxy.cutAnswerTo('finish_purchase');
    const outcome = await desk.handlers['purchase.start']({
      quoteId: priced.quoteId,
      confirmedAmount: priced.amount,
    });
    expect(outcome.status).toBe('completed');
    // The background report to the team was cut; the next sync tells it again (finish is idempotent).
    const synced = await desk.handlers['team.sync']({});
    expect(proxy.cuts).toBe(2);
    expect(synced.told + synced.published).toBeGreaterThan(0);
    expect((await teamRows()).map((row) => row.state)).toEqual(['failed', 'paid', 'paid']);
    const published = await cluster.query(
      team.database,
      'SELECT report_id FROM intel_desk.reports ORDER BY report_id',
    );
    expect(published.rows.map((row: { report_id: string }) => row.report_id)).toEqual([...ids].sort());
  }, 120_000);
});
