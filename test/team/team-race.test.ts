/**
 * Desks of one team, each its own process, data folder and wallet, racing for the same report at the same
 * moment: the team's reservation in PostgreSQL lets exactly one pay, and every other is refused before it
 * signs. Checked where the money is (the token's AuthorizationUsed events), in the team database (one claim
 * per report, team rows one to one with settlements) and in each desk's ledger (losers hold no row).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { settlementsOnChain } from '../../scripts/chaos/chain';
import { ledgerRows, tempDir } from '../core/helpers';
import { runCli, stackEnv, type Run } from '../cli/run-cli';
import { postgresBin, startCluster, type PgCluster } from '../../scripts/pg-cluster';
import { createTestTeam } from './team-helpers';

const ROUNDS = 20;
const ANALYSTS = ['alice', 'bob', 'carol'];
const REFUSED_BEFORE_SIGNING = ['team_in_progress', 'team_owned', 'all_owned'];

let stack: Stack;
let cluster: PgCluster;
/** One handle of ROUNDS reports for each race below. */
let handles: string[];
const folders: { dir: string; remove(): void }[] = [];

beforeAll(async () => {
  cluster = startCluster();
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: ROUNDS, maxReportsPerHandle: ROUNDS },
    buyerCount: ANALYSTS.length,
    mining: 'auto',
  });
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handles = shelf.entries.map((entry) => entry.username);
}, 120_000);
afterAll(async () => {
  for (const folder of folders) folder.remove();
  await stack?.stop();
  await cluster?.stop();
});

function errorCode(run: Run): string | null {
  try {
    return (JSON.parse(run.stdout) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    return null;
  }
}

async function menuIds(handle: string): Promise<string[]> {
  const menu = (await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json()) as {
    reports: { id: string }[];
  };
  return menu.reports.map((report) => report.id);
}

describe.skipIf(postgresBin() === null)('desks of one team racing for one report', () => {
  it.each([
    [3, 0],
    [2, 1],
  ])(
    `%i desks, ${ROUNDS} rounds: each report is paid once by the team and every loser signs nothing`,
    async (count, handleIndex) => {
      const analysts = ANALYSTS.slice(0, count);
      const handle = handles[handleIndex]!;
      const ids = await menuIds(handle);
      const admin = tempDir('desk-team-admin-');
      folders.push(admin);
      const team = await createTestTeam(cluster, analysts, admin.dir);
      const desks = analysts.map((analyst, i) => {
        const data = tempDir(`desk-team-${analyst}-`);
        folders.push(data);
        return {
          analyst,
          dir: data.dir,
          env: { ...stackEnv(stack, data.dir), INTEL_DESK_PRIVATE_KEY: stack.buyerKeys[i]! },
        };
      });
      for (const desk of desks) {
        const joined = await runCli(
          ['team', 'join', '--db', team.memberUrl(desk.analyst), '--json'],
          desk.env,
        );
        expect(joined.code, joined.stdout + joined.stderr).toBe(0);
      }
      const settledBefore = (await settlementsOnChain(stack.chain)).length;
      for (let round = 0; round < ROUNDS; round++) {
        const runs = await Promise.all(
          desks.map((desk) => runCli(['buy', handle, '--ids', ids[round]!, '--yes', '--json'], desk.env)),
        );
        const winners = runs.filter((run) => run.code === 0);
        expect(winners, runs.map((run) => run.stdout + run.stderr).join('\n')).toHaveLength(1);
        for (const loser of runs.filter((run) => run.code !== 0)) {
          expect(REFUSED_BEFORE_SIGNING, loser.stdout + loser.stderr).toContain(errorCode(loser));
          expect(loser.code).toBe(3);
        }
      }
      const settled = (await settlementsOnChain(stack.chain)).slice(settledBefore);
      expect(settled).toHaveLength(ROUNDS);
      // The desks' ledgers together hold exactly the settlements: no loser wrote a row, so none signed.
      const rows = desks.flatMap((desk) => ledgerRows(desk.dir));
      expect(rows).toHaveLength(ROUNDS);
      expect(rows.every((row) => row.state === 'completed')).toBe(true);
      expect(new Set(rows.map((row) => row.nonce.toLowerCase()))).toEqual(
        new Set(settled.map((s) => s.nonce)),
      );
      // The team's rows: one paid purchase and one claim per report, nonces one to one with the chain's.
      const purchases = await cluster.query(
        team.database,
        "SELECT nonce, state FROM intel_desk.purchases WHERE state <> 'failed'",
      );
      expect(purchases.rows.every((row: { state: string }) => row.state === 'paid')).toBe(true);
      expect(new Set(purchases.rows.map((row: { nonce: string }) => row.nonce))).toEqual(
        new Set(settled.map((s) => s.nonce)),
      );
      const claims = await cluster.query(team.database, 'SELECT report_id FROM intel_desk.claims');
      expect(claims.rows.map((row: { report_id: string }) => row.report_id).sort()).toEqual([...ids].sort());
      // Every desk reads every report after a sync, its own or a colleague's.
      for (const desk of desks) {
        const synced = await runCli(['team', 'sync', '--json'], desk.env);
        expect(synced.code, synced.stderr).toBe(0);
        const library = await runCli(['library', '--json'], desk.env);
        const listed = JSON.parse(library.stdout) as { id: string }[] | { items: { id: string }[] };
        const items = Array.isArray(listed) ? listed : listed.items;
        expect(new Set(items.map((item) => item.id))).toEqual(new Set(ids));
      }
    },
    600_000,
  );
});
