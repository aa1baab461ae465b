/**
 * Issue 40: an approval whose process is killed (kill -9) mid-way does not leave its request `approving` for
 * ever. The claim names its process; the next reader finds that process gone and frees the request when no
 * purchase was recorded for it (nothing was signed), or settles it from the purchase when one was, so it is
 * never paid twice. Real child processes of the CLI, held at a proxy in front of the reference service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { DeskCore } from '../../src/core';
import { startStack, type Stack } from '../../src/service/stack';
import { balanceOf, deskWithWallet, firstHandle, ledgerRows, PASSPHRASE, tempDir } from '../core/helpers';
import { startHostileProxy, type HostileProxy } from '../core/hostile-proxy';
import { root, stackEnv } from './run-cli';

let stack: Stack;
let proxy: HostileProxy;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let payer: `0x${string}`;
let handle: string;
let ids: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 4, maxReportsPerHandle: 4 },
    buyerCount: 1,
    unitPriceUsd: 0.01,
  });
  proxy = await startHostileProxy(stack.baseUrl);
  data = tempDir('desk-approve-killed-');
  ({ desk, address: payer } = await deskWithWallet(stack, data.dir, 0, { serviceUrl: proxy.url }));
  ({ handle, ids } = await firstHandle(stack));
});
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await stack?.stop();
  data?.remove();
});

/** `intel-desk approve <id> --yes` in a child process, and a way to kill it with SIGKILL and see it gone. */
function approveInChild(id: string) {
  const child = spawn(process.execPath, [path.join(root, 'bin/intel-desk.mjs'), 'approve', id, '--yes'], {
    cwd: root,
    env: {
      ...process.env,
      ...stackEnv(stack, data.dir),
      INTEL_DESK_SERVICE_URL: proxy.url,
      INTEL_DESK_PASSPHRASE: PASSPHRASE,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  return {
    stderr: () => stderr,
    kill: async () => {
      child.kill('SIGKILL');
      return exited;
    },
  };
}

/** Resolves when the proxy sees a request matching `seen`, and holds that request (and later ones) for ever. */
function holdAt(hook: 'beforeUnpaidForward' | 'beforePaidForward', seen: (url: string) => boolean) {
  let reached: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  const hold = (url: string) => {
    if (!seen(url)) return Promise.resolve();
    reached();
    return new Promise<void>(() => undefined);
  };
  if (hook === 'beforeUnpaidForward') proxy.beforeUnpaidForward = hold;
  else proxy.beforePaidForward = () => hold('paid');
  return arrived;
}

describe('an approval killed mid-way', () => {
  it('before anything was signed: its claim is freed, and the request pays once when approved again', async () => {
    const request = await desk.handlers['purchaseRequest.create']({
      handle,
      selection: { kind: 'ids', ids: [ids[0]!] },
    });
    const before = await balanceOf(stack, payer);
    // The approval claims the request, then asks the service for a fresh price: held there.
    const pricing = holdAt('beforeUnpaidForward', (url) => url.includes(`ids=${ids[0]!}`));
    const child = approveInChild(request.id);
    await pricing;
    // While its process lives, nobody else takes the claim.
    expect(await desk.handlers['purchaseRequest.get']({ id: request.id })).toMatchObject({
      state: 'approving',
    });
    expect(await child.kill()).toBe('SIGKILL');
    proxy.beforeUnpaidForward = null;

    const freed = await desk.handlers['purchaseRequest.get']({ id: request.id });
    expect(freed).toMatchObject({ state: 'pending', purchaseId: null });
    expect(freed.error).toMatch(/its process stopped\) before anything was signed; nothing was paid/);
    expect(ledgerRows(data.dir)).toEqual([]);
    expect(await balanceOf(stack, payer)).toBe(before);

    const { outcome } = await desk.handlers['purchaseRequest.approve']({ id: request.id });
    expect(outcome.status).toBe('completed');
    expect(await balanceOf(stack, payer)).toBe(before - 10_000n);
  });

  it('after its payment was recorded: the request is settled from that purchase, never paid again', async () => {
    const request = await desk.handlers['purchaseRequest.create']({
      handle,
      selection: { kind: 'ids', ids: [ids[1]!] },
    });
    // The signed payment is on its way to the service: held at the proxy, the process is killed.
    const sending = holdAt('beforePaidForward', () => true);
    const child = approveInChild(request.id);
    await sending;
    expect(await child.kill()).toBe('SIGKILL');
    proxy.beforePaidForward = null;

    const row = ledgerRows(data.dir).find(
      (r) => (JSON.parse(r.quote_json) as { expectedIds?: string[] }).expectedIds?.[0] === ids[1],
    );
    expect(row?.state).toBe('sent');
    const settled = await desk.handlers['purchaseRequest.get']({ id: request.id });
    expect(settled).toMatchObject({ state: 'approved', purchaseId: row!.id });
    expect(settled.error).toMatch(/process ended while paying; purchase .* is sent/);
    await expect(desk.handlers['purchaseRequest.approve']({ id: request.id })).rejects.toMatchObject({
      code: 'request_not_pending',
    });
  });
});
