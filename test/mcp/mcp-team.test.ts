/**
 * A desk in a team driven through `intel-desk mcp` over stdio with the SDK's client: request_purchase goes
 * through the team's reservation like any purchase, so reports a colleague already bought for the team are
 * refused with team_owned even after the person approves, before anything is signed (no ledger row, no money
 * moved, nothing new on the team); once the desk has synced, search_library and read_report serve the team's
 * reports. Real cluster, chain and service.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import type { DeskCore } from '../../src/core';
import { startStack, type Stack } from '../../src/service/stack';
import { balanceOf, deskWithWallet, firstHandle, ledgerRows, tempDir } from '../core/helpers';
import { postgresBin, startCluster, type PgCluster } from '../../scripts/pg-cluster';
import { createTestTeam, type TestTeam } from '../team/team-helpers';
import { runCli, stackEnv } from '../cli/run-cli';
import { jsonPart, startMcp, texts } from './mcp-client';

const runs = postgresBin() !== null;
let stack: Stack;
let cluster: PgCluster;
let team: TestTeam;
let bob: DeskCore;
let handle: string;
let ids: string[];
const folders: { dir: string; remove(): void }[] = [];

function folder(prefix: string): string {
  const made = tempDir(prefix);
  folders.push(made);
  return made.dir;
}

beforeAll(async () => {
  if (!runs) return;
  cluster = startCluster();
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    buyerCount: 2,
    mining: 'auto',
  });
  ({ handle, ids } = await firstHandle(stack));
  team = await createTestTeam(cluster, ['alice', 'bob'], folder('desk-mcp-team-admin-'));
  bob = (await deskWithWallet(stack, folder('desk-mcp-team-bob-'), 1, { timeoutMs: 5_000 })).desk;
  await bob.handlers['team.join']({ url: team.memberUrl('bob') });
}, 180_000);
afterAll(async () => {
  await bob?.close().catch(() => undefined);
  await stack?.stop();
  await cluster?.stop();
  for (const made of folders) made.remove();
});

describe.skipIf(!runs)('an MCP session of a desk in a team', () => {
  it('refuses what the team owns before signing, and serves the team reports after a sync', async () => {
    const dir = folder('desk-mcp-team-alice-');
    const env = stackEnv(stack, dir);
    const joined = await runCli(['team', 'join', '--db', team.memberUrl('alice')], env);
    expect(joined.code, joined.stderr).toBe(0);
    // After alice joined (a join pulls what the team holds), bob buys two reports for the team and
    // publishes them: alice's library does not hold them yet.
    const quote = await bob.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(0, 2) },
    });
    const bought = await bob.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(bought.status).toBe('completed');
    await bob.handlers['team.sync']({});
    const keyFile = path.join(dir, 'assistant.key');
    writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const mcp = await startMcp(stack, dir, ['--allow-spend', '1', '--key-file', keyFile]);
    try {
      const before = await balanceOf(stack, payer);
      const teamBefore = await cluster.query(
        team.database,
        'SELECT count(*)::int AS n FROM intel_desk.purchases',
      );
      // The price says it first: the team owns two of the three.
      const priced = await mcp.client.callTool({
        name: 'get_quote',
        arguments: { handle, ids: ids.slice(0, 3) },
      });
      expect((priced.structuredContent as { team: unknown }).team).toMatchObject({
        reachable: true,
        ownedByTeam: 2,
        beingBought: 0,
        free: 1,
        refusal: 'team_owned',
        said: expect.stringMatching(/^The team already owns 2 of these reports, bought by bob_/),
      });
      const asked = await mcp.client.callTool({
        name: 'request_purchase',
        arguments: { handle, ids: ids.slice(0, 3), reason: 'the newest three' },
      });
      // The person approved; the team's reservation refused it before anything was signed.
      expect(mcp.asked).toHaveLength(1);
      expect(asked.isError).toBe(true);
      expect(texts(asked)[0]).toMatch(
        /^The person approved, but Intel Desk refused to pay: The team already owns 2 of these reports, bought by bob_.*nothing was signed.*\[team_owned\] Nothing was bought and no money moved\./,
      );
      expect(ledgerRows(dir)).toEqual([]);
      expect(await balanceOf(stack, payer)).toBe(before);
      const teamAfter = await cluster.query(
        team.database,
        'SELECT count(*)::int AS n FROM intel_desk.purchases',
      );
      expect(teamAfter.rows[0].n).toBe(teamBefore.rows[0].n);

      const synced = await runCli(['team', 'sync', '--json'], env);
      expect(synced.code, synced.stderr).toBe(0);
      const found = await mcp.client.callTool({
        name: 'search_library',
        arguments: { query: `handle:${handle}` },
      });
      expect(found.isError).toBeFalsy();
      const hits = jsonPart<{ hits: { id: string }[] }>(found).hits.map((hit) => hit.id);
      expect(hits.sort()).toEqual(ids.slice(0, 2).sort());
      const read = await mcp.client.callTool({ name: 'read_report', arguments: { id: ids[0] } });
      expect(read.isError).toBeFalsy();
      const report = (read.structuredContent as { report: { id: string; handle: string } }).report;
      expect(report).toMatchObject({
        id: ids[0],
        handle: handle.toLowerCase(),
        boughtBy: { analyst: expect.stringMatching(/^bob_/), deskId: expect.any(String) },
      });
      expect(texts(read).join('\n')).toMatch(/bought for the team by bob_/);
    } finally {
      await mcp.close();
    }
  }, 180_000);
});
