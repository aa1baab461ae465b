/**
 * Ctrl-C during `intel-desk buy`, sent to a real CLI process: while the payment is on its way (the service
 * settled, its answer held by a proxy) it says the purchase is in doubt, will not be paid again, and where to
 * see it; while only the price is being asked for, that nothing was paid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import { balanceOf, ledgerRows, tempDir } from '../core/helpers';
import { startHostileProxy } from '../core/hostile-proxy';
import { firstHandle } from '../core/helpers';
import { runCli, stackEnv, startCli } from './run-cli';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 2, maxReportsPerHandle: 2 },
    buyerCount: 1,
  });
});
afterAll(async () => {
  await stack?.stop();
});

const SESSION_KEY = () => ({ INTEL_DESK_PRIVATE_KEY: stack.buyerKeys[0]! });

describe('Ctrl-C during intel-desk buy', () => {
  it('with the payment on its way: says it is in doubt, not paid again, and where to see it', async () => {
    const data = tempDir('desk-cli-interrupt-');
    const proxy = await startHostileProxy(stack.baseUrl);
    try {
      const { handle } = await firstHandle(stack);
      const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
      const before = await balanceOf(stack, payer);
      const env = { ...stackEnv(stack, data.dir), INTEL_DESK_SERVICE_URL: proxy.url, ...SESSION_KEY() };
      let answerHeld: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (answerHeld = resolve));
      proxy.beforePaidAnswer = () => {
        answerHeld();
        return new Promise<void>(() => undefined);
      };
      const run = startCli(['buy', handle, '--all', '--yes'], env);
      await held;
      run.child.kill('SIGINT');
      const result = await run.done;
      expect(result.code).toBe(130);
      const [row] = ledgerRows(data.dir);
      expect(row?.state).toBe('sent');
      expect(result.stderr).toContain(
        `Interrupted while the payment was on its way: purchase ${row!.id} is in doubt (the payment may have left). It will not be paid again; \`intel-desk purchases\` checks it on chain and shows how it ends.`,
      );
      expect(await balanceOf(stack, payer)).toBe(before - 20_000n);

      proxy.beforePaidAnswer = null;
      const listed = await runCli(['purchases'], env);
      expect(listed.stdout).toContain(row!.id);
      expect(ledgerRows(data.dir)).toHaveLength(1);
      expect(await balanceOf(stack, payer)).toBe(before - 20_000n);
    } finally {
      await proxy.close();
      data.remove();
    }
  }, 60_000);

  it('while the price is asked for: says nothing was paid', async () => {
    const data = tempDir('desk-cli-interrupt-');
    let asked: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (asked = resolve));
    // A service that never answers: the run is still asking for the price when it is interrupted.
    const silent: Server = createServer(() => asked());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const env = { ...stackEnv(stack, data.dir), INTEL_DESK_SERVICE_URL: url, ...SESSION_KEY() };
      const run = startCli(['buy', 'somebody', '--all', '--yes'], env);
      await reached;
      run.child.kill('SIGINT');
      const result = await run.done;
      expect(result.code).toBe(130);
      expect(result.stderr).toContain('intel-desk: Interrupted before anything was sent: nothing was paid.');
      expect(ledgerRows(data.dir)).toHaveLength(0);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
      data.remove();
    }
  }, 60_000);
});
