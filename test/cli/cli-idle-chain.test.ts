/**
 * `intel-desk buy` after the chain sat idle: on a chain that mines only per transaction the latest block is
 * 150 s old (anvil's own clock moved), the case that once failed every purchase with
 * invalid_exact_evm_transaction_simulation_failed. The CLI measures the chain and buys, paying exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { PurchaseOutcome } from '../../src/shared/rpc';
import { balanceOf, tempDir } from '../core/helpers';
import { idleFor } from '../service/chain-time';
import { parsed, runCli } from './run-cli';

let stack: Stack;
let data: ReturnType<typeof tempDir>;

beforeAll(async () => {
  stack = await startStack({
    mining: 'auto',
    seed: { handles: 1, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    buyerCount: 1,
  });
  data = tempDir('desk-cli-idle-');
});
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

describe('intel-desk buy after an idle chain', () => {
  it('buys all of a handle, paying the quoted amount once', async () => {
    const keyFile = path.join(data.dir, 'buyer.key');
    writeFileSync(keyFile, stack.buyerKeys[0]!, { mode: 0o600 });
    const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
      entries: { username: string }[];
    };
    const handle = shelf.entries[0]!.username;
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    await idleFor(stack, 150);
    const before = await balanceOf(stack, payer);
    const run = await runCli(['buy', handle, '--all', '--yes', '--key-file', keyFile, '--json'], {
      INTEL_DESK_SERVICE_URL: stack.baseUrl,
      INTEL_DESK_DATA_DIR: data.dir,
      INTEL_DESK_RPC_URL: stack.rpcUrl,
      INTEL_DESK_DEMO: '1',
      INTEL_DESK_DEMO_ASSET: stack.asset,
    });
    expect(run.code, run.stderr).toBe(0);
    const outcome = parsed<PurchaseOutcome>(run);
    expect(outcome.status).toBe('completed');
    if (outcome.status !== 'completed') return;
    expect(outcome.purchase.reportCount).toBe(4);
    expect(await balanceOf(stack, payer)).toBe(before - BigInt(outcome.purchase.amount));
    expect(outcome.purchase.amount).toBe('40000');
  });
});
