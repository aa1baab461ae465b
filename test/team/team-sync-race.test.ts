/**
 * A sync on a desk while one of its own purchases is between the team's reservation and its ledger row (the
 * answer to the reservation still on its way, as when a purchase ends and tells the team while another
 * starts): the sync must not take the purchase for one that signed nothing and release it, or the team
 * forgets reports it is paying for and a colleague pays for them again. Found by `npm run chaos -- --team`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskCore } from '../../src/core';
import { startStack, type Stack } from '../../src/service/stack';
import { settlementsOnChain } from '../../scripts/chaos/chain';
import { deskWithWallet, failure, tempDir } from '../core/helpers';
import { postgresBin, startCluster, type PgCluster } from '../../scripts/pg-cluster';
import { startPgFaultProxy, type PgFaultProxy } from '../../scripts/chaos/pg-fault-proxy';
import { createTestTeam, type TestTeam } from './team-helpers';

let stack: Stack;
let cluster: PgCluster;
let proxy: PgFaultProxy;
let team: TestTeam;
let ivy: DeskCore;
let jo: DeskCore;
let handle: string;
let ids: string[];
const folders: { dir: string; remove(): void }[] = [];

function folder(prefix: string): string {
  const made = tempDir(prefix);
  folders.push(made);
  return made.dir;
}

beforeAll(async () => {
  if (postgresBin() === null) return;
  cluster = startCluster();
  proxy = await startPgFaultProxy(cluster.socketDir);
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 2, maxReportsPerHandle: 2 },
    buyerCount: 2,
    mining: 'auto',
  });
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handle = shelf.entries[0]!.username;
  const menu = (await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json()) as {
    reports: { id: string }[];
  };
  ids = menu.reports.map((report) => report.id);
  team = await createTestTeam(cluster, ['ivy', 'jo'], folder('desk-team-admin-'));
  ({ desk: ivy } = await deskWithWallet(stack, folder('desk-team-ivy-'), 0));
  ({ desk: jo } = await deskWithWallet(stack, folder('desk-team-jo-'), 1));
  const throughProxy = team
    .memberUrl('ivy')
    .replace(encodeURIComponent(cluster.socketDir), encodeURIComponent(proxy.socketDir));
  await ivy.handlers['team.join']({ url: throughProxy });
  await jo.handlers['team.join']({ url: team.memberUrl('jo') });
}, 120_000);
afterAll(async () => {
  await ivy?.close();
  await jo?.close();
  await proxy?.close();
  await stack?.stop();
  await cluster?.stop();
  for (const made of folders) made.remove();
});

async function teamRows(): Promise<{ state: string; claims: number }[]> {
  const result = await cluster.query(
    team.database,
    `SELECT p.state, (SELECT count(*) FROM intel_desk.claims c WHERE c.purchase_id = p.purchase_id)::int AS claims
     FROM intel_desk.purchases p ORDER BY p.created_at`,
  );
  return result.rows as { state: string; claims: number }[];
}

describe.skipIf(postgresBin() === null)('a team sync while a purchase of the same desk is reserving', () => {
  it('leaves the reservation to its purchase: the team holds the reports, and no colleague pays again', async () => {
    const settledBefore = (await settlementsOnChain(stack.chain)).length;
    const priced = await ivy.handlers['quote.get']({ handle, selection: { kind: 'ids', ids } });
    const held = proxy.holdAnswerTo('reserve_purchase');
    const buying = ivy.handlers['purchase.start']({
      quoteId: priced.quoteId,
      confirmedAmount: priced.amount,
    });
    // The server committed the reservation; its answer has not reached the desk yet.
    await held;
    await ivy.handlers['team.sync']({});
    proxy.releaseAnswer();
    expect((await buying).status).toBe('completed');
    await ivy.handlers['team.sync']({});
    expect(await teamRows()).toEqual([{ state: 'paid', claims: ids.length }]);

    const again = jo.handlers['quote.get']({ handle, selection: { kind: 'ids', ids } }).then((quote) =>
      jo.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
    );
    expect(['team_owned', 'all_owned']).toContain((await failure(again)).code);
    expect((await settlementsOnChain(stack.chain)).length).toBe(settledBefore + 1);
  }, 120_000);
});
