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
import { runCli, stackEnv } from '../cli/run-cli';

let stack: Stack;
let cluster: PgCluster;
let proxy: PgFaultProxy;
let team: TestTeam;
let ivy: DeskCore;
let ivyDir: string;
let jo: DeskCore;
let handle: string;
let ids: string[];
let otherIds: string[];
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
    seed: { handles: 1, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
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
  [ids, otherIds] = [menu.reports.slice(0, 2), menu.reports.slice(2)].map((reports) =>
    reports.map((report) => report.id),
  ) as [string[], string[]];
  team = await createTestTeam(cluster, ['ivy', 'jo'], folder('desk-team-admin-'));
  ivyDir = folder('desk-team-ivy-');
  ({ desk: ivy } = await deskWithWallet(stack, ivyDir, 0));
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

describe.skipIf(postgresBin() === null)(
  'a team sync while a purchase on the same folder is reserving',
  () => {
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

    it('a sync by another process on the same folder (a CLI run beside the window) leaves it alone too', async () => {
      const settledBefore = (await settlementsOnChain(stack.chain)).length;
      const priced = await ivy.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: otherIds } });
      const held = proxy.holdAnswerTo('reserve_purchase');
      const buying = ivy.handlers['purchase.start']({
        quoteId: priced.quoteId,
        confirmedAmount: priced.amount,
      });
      await held;
      const synced = await runCli(['team', 'sync', '--json'], stackEnv(stack, ivyDir));
      expect(synced.code, synced.stdout + synced.stderr).toBe(0);
      proxy.releaseAnswer();
      expect((await buying).status).toBe('completed');
      await ivy.handlers['team.sync']({});
      expect((await teamRows()).at(-1)).toEqual({ state: 'paid', claims: otherIds.length });
      const again = jo.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: otherIds } }).then(
        (quote) => jo.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
      );
      expect(['team_owned', 'all_owned']).toContain((await failure(again)).code);
      expect((await settlementsOnChain(stack.chain)).length).toBe(settledBefore + 1);
    }, 120_000);
  },
);
