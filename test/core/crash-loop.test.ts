/**
 * Power-loss style loop: purchases killed with SIGKILL at a random step, many times over one library. After
 * every restart, each report paid for on chain is in the library and every purchase is explained.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import fc from 'fast-check';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { PurchaseStep } from '../../src/core';
import { reportMenuSchema } from '../../src/shared/wire';
import { balanceOf, deskFor, tempDir } from './helpers';

const root = path.resolve(import.meta.dirname, '../..');
const STEPS: PurchaseStep[] = [
  'signing',
  'signed',
  'ledger_written',
  'sent',
  'response_received',
  'stored',
  'completed',
];
const ROUNDS = 8;

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let handle: string;
let reportIds: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: ROUNDS, maxReportsPerHandle: ROUNDS },
    buyerCount: 1,
  });
  data = tempDir('desk-crash-loop-');
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handle = shelf.entries[0]!.username;
  const menu = reportMenuSchema.parse(
    await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json(),
  );
  reportIds = menu.reports.map((r) => r.id);
});
afterAll(async () => {
  await stack?.stop();
  data?.remove();
});

async function purchaseKilledAt(step: PurchaseStep, reportId: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/core/fixtures/crash-purchase.ts'], {
    cwd: root,
    env: {
      ...process.env,
      CRASH_AT: step,
      DATA_DIR: data.dir,
      SERVICE_URL: stack.baseUrl,
      RPC_URL: stack.rpcUrl,
      DEMO_ASSET: stack.asset,
      BUYER_KEY: stack.buyerKeys[0]!,
      HANDLE: handle,
      REPORT_IDS: reportId,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const [, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  expect(signal).toBe('SIGKILL');
}

describe('random kill points, repeated', () => {
  it(`loses no paid snapshot and leaves no purchase unexplained over ${ROUNDS} crashes`, async () => {
    // A fixed seed keeps the run reproducible; fast-check picks the kill points.
    const steps = fc.sample(fc.constantFrom(...STEPS), { numRuns: ROUNDS, seed: 402 });
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const start = await balanceOf(stack, payer);
    for (const [round, step] of steps.entries()) {
      await purchaseKilledAt(step, reportIds[round]!);
    }
    const desk = await deskFor(stack, data.dir, { now: () => Date.now() + 700_000 });
    try {
      const { purchases } = await desk.handlers['purchases.list']({});
      const paid = (start - (await balanceOf(stack, payer))) / 10_000n;
      const completed = purchases.filter((p) => p.state === 'completed');
      const owned = new Set((await desk.handlers['library.list']({ handle })).items.map((item) => item.id));
      // Zero lost snapshots: every settled payment delivered its report into the library.
      expect(BigInt(completed.length)).toBe(paid);
      for (const purchase of completed) for (const id of purchase.reportIds) expect(owned.has(id)).toBe(true);
      // Zero unexplained purchases: nothing is left half-way, and every failure says why.
      for (const purchase of purchases) {
        expect(['completed', 'failed']).toContain(purchase.state);
        if (purchase.state === 'failed') expect(purchase.error).toBeTruthy();
      }
      expect(purchases.length).toBe(steps.filter((s) => s !== 'signing' && s !== 'signed').length);
    } finally {
      await desk.close();
    }
  });
});
