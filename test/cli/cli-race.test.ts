/**
 * The same selection bought by several CLI processes on one data folder at the same moment, as a person does
 * who runs a script twice or a scheduler that starts a job while the last one still runs. One reservation in
 * desk.db, taken in a write transaction before anything is signed, lets exactly one of them pay; every other
 * is refused before it signs. Checked where the money is: the token's AuthorizationUsed events on the chain,
 * the payer's balance, the ledger rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import { settlementsOnChain } from '../../scripts/chaos/chain';
import { balanceOf, ledgerRows, tempDir } from '../core/helpers';
import { runCli, stackEnv, type Run } from './run-cli';

const ROUNDS = 20;
/** Processes buying different handles at once against one daily cap. */
const CAP_RACERS = 6;
/** Refusals a losing run may give: each says nothing was signed. */
const REFUSED_BEFORE_SIGNING = [
  'purchase_in_progress',
  'purchase_in_doubt',
  'owned_since_quote',
  'all_owned',
];

let stack: Stack;
const menus: { handle: string; ids: string[] }[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2 + CAP_RACERS, minReportsPerHandle: ROUNDS, maxReportsPerHandle: ROUNDS },
    buyerCount: 1,
    mining: 'auto',
  });
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  for (const { username } of shelf.entries.slice(0, 2 + CAP_RACERS)) {
    const menu = (await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${username}`)).json()) as {
      reports: { id: string }[];
    };
    menus.push({ handle: username, ids: menu.reports.map((report) => report.id) });
  }
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

function errorCode(run: Run): string | null {
  try {
    const parsed = JSON.parse(run.stdout) as { error?: { code?: string } };
    return parsed.error?.code ?? null;
  } catch {
    return null;
  }
}

async function race(racers: number, menu: { handle: string; ids: string[] }) {
  const data = tempDir(`desk-race-${racers}-`);
  const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
  const env = {
    ...stackEnv(stack, data.dir),
    INTEL_DESK_PRIVATE_KEY: stack.buyerKeys[0]!,
  };
  try {
    const before = await balanceOf(stack, payer);
    const settledBefore = (await settlementsOnChain(stack.chain)).length;
    for (let round = 0; round < ROUNDS; round++) {
      const id = menu.ids[round]!;
      const runs = await Promise.all(
        Array.from({ length: racers }, () =>
          runCli(['buy', menu.handle, '--ids', id, '--yes', '--json'], env),
        ),
      );
      const winners = runs.filter((run) => run.code === 0);
      expect(winners, runs.map((run) => run.stdout + run.stderr).join('\n')).toHaveLength(1);
      for (const loser of runs.filter((run) => run.code !== 0)) {
        expect(REFUSED_BEFORE_SIGNING, loser.stdout + loser.stderr).toContain(errorCode(loser));
        expect(loser.stderr).not.toMatch(/SQLITE_BUSY|database is locked/i);
      }
    }
    // One payment per selection on the chain, and the ledger holds only the winners: no loser signed.
    const settled = (await settlementsOnChain(stack.chain)).slice(settledBefore);
    expect(settled).toHaveLength(ROUNDS);
    expect(new Set(settled.map((s) => s.nonce)).size).toBe(ROUNDS);
    expect(before - (await balanceOf(stack, payer))).toBe(BigInt(ROUNDS) * 10_000n);
    const rows = ledgerRows(data.dir);
    expect(rows).toHaveLength(ROUNDS);
    expect(rows.every((row) => row.state === 'completed')).toBe(true);
    expect(new Set(rows.map((row) => row.nonce.toLowerCase()))).toEqual(new Set(settled.map((s) => s.nonce)));
  } finally {
    data.remove();
  }
}

describe('CLI runs racing for one selection on one data folder', () => {
  it(`two at once, ${ROUNDS} rounds: each selection is paid once and every loser signs nothing`, async () => {
    await race(2, menus[0]!);
  }, 600_000);

  it(`eight at once, ${ROUNDS} rounds: each selection is paid once and every loser signs nothing`, async () => {
    await race(8, menus[1]!);
  }, 900_000);
});

describe('CLI runs buying different handles at once against one daily cap', () => {
  it(`${CAP_RACERS} processes, room for 3: the chain's settled total today stays within the cap`, async () => {
    const data = tempDir('desk-cap-race-');
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const env = { ...stackEnv(stack, data.dir), INTEL_DESK_PRIVATE_KEY: stack.buyerKeys[0]! };
    try {
      const caps = await runCli(['caps', '--per-purchase', '1', '--daily', '0.03'], env);
      expect(caps.code, caps.stderr).toBe(0);
      const before = await balanceOf(stack, payer);
      const runs = await Promise.all(
        menus
          .slice(2, 2 + CAP_RACERS)
          .map((menu) => runCli(['buy', menu.handle, '--ids', menu.ids[0]!, '--yes', '--json'], env)),
      );
      const paid = runs.filter((run) => run.code === 0);
      expect(paid, runs.map((run) => run.stdout + run.stderr).join('\n')).toHaveLength(3);
      for (const refused of runs.filter((run) => run.code !== 0))
        expect(errorCode(refused)).toBe('over_daily_cap');
      expect(before - (await balanceOf(stack, payer))).toBe(30_000n);
      expect(ledgerRows(data.dir).map((row) => row.state)).toEqual(['completed', 'completed', 'completed']);
    } finally {
      data.remove();
    }
  }, 300_000);
});
