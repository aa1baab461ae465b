import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { PurchaseStep } from '../../src/core';
import { balanceOf, deskFor, firstHandle, tempDir } from './helpers';
import { startHostileProxy, withoutPaymentIdentifier, type HostileProxy } from './hostile-proxy';

const root = path.resolve(import.meta.dirname, '../..');
let stack: Stack;
let handle: string;
let reportIds: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 12, maxReportsPerHandle: 12 },
    buyerCount: 1,
  });
  ({ handle, ids: reportIds } = await firstHandle(stack));
});
afterAll(async () => {
  await stack?.stop();
});

function purchaseProcess(step: PurchaseStep | 'outside', dataDir: string, ids: string[], serviceUrl: string) {
  return spawn(process.execPath, ['--import', 'tsx', 'test/core/fixtures/crash-purchase.ts'], {
    cwd: root,
    env: {
      ...process.env,
      CRASH_AT: step,
      DATA_DIR: dataDir,
      SERVICE_URL: serviceUrl,
      RPC_URL: stack.rpcUrl,
      DEMO_ASSET: stack.asset,
      BUYER_KEY: stack.buyerKeys[0]!,
      HANDLE: handle,
      REPORT_IDS: ids.join(','),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function purchaseKilledAt(
  step: PurchaseStep,
  dataDir: string,
  ids: string[],
): Promise<NodeJS.Signals | null> {
  const child = purchaseProcess(step, dataDir, ids, stack.baseUrl);
  const [, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return signal;
}

const payer = () => privateKeyToAccount(stack.buyerKeys[0]!).address;

describe('kill -9 during a purchase', () => {
  const cases: { step: PurchaseStep; charged: boolean; state: 'completed' | 'failed' | 'in_doubt' }[] = [
    { step: 'ledger_written', charged: false, state: 'failed' },
    { step: 'sent', charged: false, state: 'in_doubt' },
    { step: 'response_received', charged: true, state: 'completed' },
    { step: 'stored', charged: true, state: 'completed' },
  ];

  cases.forEach(({ step, charged, state }, index) => {
    it(`killed at "${step}": nothing paid for is lost and the purchase is explained`, async () => {
      const data = tempDir(`desk-crash-${step}-`);
      try {
        const ids = reportIds.slice(index * 2, index * 2 + 2);
        const before = await balanceOf(stack, payer());
        expect(await purchaseKilledAt(step, data.dir, ids)).toBe('SIGKILL');
        expect(await balanceOf(stack, payer())).toBe(charged ? before - 20_000n : before);

        const desk = await deskFor(stack, data.dir);
        try {
          const { purchases } = await desk.handlers['purchases.list']({});
          expect(purchases).toHaveLength(1);
          const [purchase] = purchases;
          expect(purchase?.state).toBe(state);
          if (state !== 'completed') expect(purchase?.error).toBeTruthy();
          const owned = (await desk.handlers['library.list']({ handle })).items.map((item) => item.id).sort();
          expect(owned).toEqual(charged ? [...ids].sort() : []);
        } finally {
          await desk.close();
        }

        if (state === 'in_doubt') {
          // Once the authorization can no longer settle, the chain's answer closes the case.
          const later = await deskFor(stack, data.dir, { now: () => Date.now() + 700_000 });
          try {
            const { purchases } = await later.handlers['purchases.list']({});
            expect(purchases[0]?.state).toBe('failed');
            expect(purchases[0]?.error).toMatch(/expired unused/);
          } finally {
            await later.close();
          }
        }
      } finally {
        data.remove();
      }
    });
  });
});

describe('kill -9 after the payment was sent', () => {
  /** Runs a purchase in a child process and kills it once the service settled, before its answer arrives. */
  async function killedAfterSettlement(proxy: HostileProxy, dir: string, ids: string[]): Promise<void> {
    const child = purchaseProcess('outside', dir, ids, proxy.url);
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    proxy.beforePaidAnswer = async () => {
      child.kill('SIGKILL');
      await exited;
    };
    const [, signal] = await exited;
    expect(signal).toBe('SIGKILL');
    expect(proxy.paymentsSeen).toHaveLength(1);
  }

  it('killed after the service settled but before its answer arrived: in doubt at start, recovered by the next check, paid once', async () => {
    const data = tempDir('desk-crash-after-send-');
    const proxy = await startHostileProxy(stack.baseUrl);
    try {
      const ids = reportIds.slice(8, 10);
      const before = await balanceOf(stack, payer());
      await killedAfterSettlement(proxy, data.dir, ids);
      proxy.beforePaidAnswer = null;
      expect(await balanceOf(stack, payer())).toBe(before - 20_000n);

      // The start's check finds it paid on chain and in doubt; the service offered payment-identifier, so the
      // next check sends the identical payment once more and gets the answer the service kept.
      const desk = await deskFor(stack, data.dir);
      try {
        const started = await desk.handlers['purchases.list']({});
        expect(started.purchases).toHaveLength(1);
        expect(started.purchases[0]).toMatchObject({ state: 'in_doubt', waitingFor: { kind: 'redelivery' } });
        expect(proxy.paymentsSeen).toHaveLength(1);
        const { purchases } = await desk.handlers['purchases.reconcile']({});
        expect(purchases[0]).toMatchObject({ state: 'completed', txHash: expect.stringMatching(/^0x/) });
        const stored = (await desk.handlers['library.list']({ handle })).items.map((item) => item.id);
        expect(stored.sort()).toEqual([...ids].sort());
        expect(proxy.paymentsSeen).toHaveLength(2);
        expect(proxy.paymentsSeen[1]).toBe(proxy.paymentsSeen[0]);
        await desk.handlers['purchases.reconcile']({});
        expect(await balanceOf(stack, payer())).toBe(before - 20_000n);
        expect(proxy.paymentsSeen).toHaveLength(2);
      } finally {
        await desk.close();
      }
    } finally {
      await proxy.close();
      data.remove();
    }
  });

  it('the same, from a service that keeps no answers: held in doubt with the receipt, never paid again', async () => {
    const data = tempDir('desk-crash-after-send-');
    const proxy = await startHostileProxy(stack.baseUrl);
    proxy.mutate = withoutPaymentIdentifier;
    try {
      const ids = reportIds.slice(10, 12);
      const before = await balanceOf(stack, payer());
      await killedAfterSettlement(proxy, data.dir, ids);
      expect(await balanceOf(stack, payer())).toBe(before - 20_000n);

      const desk = await deskFor(stack, data.dir);
      try {
        const { purchases } = await desk.handlers['purchases.list']({});
        expect(purchases).toHaveLength(1);
        const [purchase] = purchases;
        expect(purchase).toMatchObject({
          state: 'in_doubt',
          txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          waitingFor: { kind: 'redelivery', txHash: purchase?.txHash },
        });
        expect(purchase?.error).toMatch(/Paid on chain .* will not pay again/);
        expect((await desk.handlers['library.list']({ handle })).items).toEqual([]);
        // Checked again, it stays explained and nothing new is paid.
        await desk.handlers['purchases.reconcile']({});
        expect(await balanceOf(stack, payer())).toBe(before - 20_000n);
        expect(proxy.paymentsSeen).toHaveLength(1);
      } finally {
        await desk.close();
      }
    } finally {
      await proxy.close();
      data.remove();
    }
  });
});
