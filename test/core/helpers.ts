/** Core tests: a desk in a temp dir wired to a reference-service stack. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import type { Address } from 'viem';
import { createDeskCore, type DeskCore, type DeskCoreOptions } from '../../src/core';
import type { Stack } from '../../src/service/stack';

export const PASSPHRASE = 'correct horse battery staple';

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function deskFor(
  stack: Stack,
  dataDir: string,
  options: Partial<DeskCoreOptions> = {},
): Promise<DeskCore> {
  return createDeskCore({
    dataDir,
    serviceUrl: stack.baseUrl,
    demo: true,
    rpcUrl: stack.rpcUrl,
    attempts: 1,
    ...options,
  });
}

export async function deskWithWallet(
  stack: Stack,
  dataDir: string,
  buyerIndex = 0,
  options: Partial<DeskCoreOptions> = {},
) {
  const desk = await deskFor(stack, dataDir, options);
  const key = stack.buyerKeys[buyerIndex];
  if (!key) throw new Error(`no buyer ${buyerIndex}`);
  await desk.wallet.importPrivateKey(key, PASSPHRASE);
  return { desk, address: privateKeyToAccount(key).address };
}

export async function balanceOf(stack: Stack, owner: Address): Promise<bigint> {
  return (await stack.chain.clients.publicClient.readContract({
    address: stack.asset,
    abi: stack.chain.token.contract.abi,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;
}
