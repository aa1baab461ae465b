/**
 * Settlement transactions all come from one facilitator account. If one send fails after its account nonce was
 * taken while other settlements already hold the next nonces, those wait behind the gap and their buyers hang.
 * Here the chain transport drops a transaction sent, as a lost RPC connection would; or, once a transaction
 * is broadcast, loses the answers about its receipt, so the service cannot tell whether it confirmed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPublicClient, createWalletClient, custom, http } from 'viem';
import { startDemoChain, type DemoChain } from '../../src/service/chain/demo-chain';
import { chainAccount, localChain } from '../../src/service/chain/token';
import { startService, type ServiceOnChain, type Stack } from '../../src/service/stack';
import { buyer, getJson, signAuthorization, tokenBalance, v2Payment } from './helpers';

let chain: DemoChain;
let service: ServiceOnChain;
let dataDir: string;
let stack: Stack;
let dropped = 0;
let dropNextSend = false;
let loseReceipts = false;

beforeAll(async () => {
  chain = await startDemoChain({ buyerCount: 4 });
  const rpc = http(chain.rpcUrl, { retryCount: 0 })({ chain: localChain(chain.chainId, chain.rpcUrl) });
  const flaky = custom({
    async request({ method, params }: { method: string; params?: unknown }) {
      if (method === 'eth_sendRawTransaction' && dropNextSend) {
        dropNextSend = false;
        dropped++;
        throw new Error('injected fault: the connection to the chain was reset');
      }
      return rpc.request({ method, params } as Parameters<typeof rpc.request>[0]);
    },
  });
  const viemChain = localChain(chain.chainId, chain.rpcUrl);
  const faulty: DemoChain = {
    ...chain,
    clients: {
      chain: viemChain,
      publicClient: createPublicClient({
        chain: viemChain,
        transport: custom({
          async request({ method, params }: { method: string; params?: unknown }) {
            if (method === 'eth_getTransactionReceipt' && loseReceipts) {
              throw new Error('injected fault: the connection to the chain was reset');
            }
            return rpc.request({ method, params } as Parameters<typeof rpc.request>[0]);
          },
        }),
      }),
      walletClient: createWalletClient({
        chain: viemChain,
        transport: flaky,
        account: chainAccount(chain.facilitatorKey),
      }),
    },
  };
  dataDir = mkdtempSync(path.join(tmpdir(), 'service-settlement-'));
  service = await startService(faulty, {
    dataDir,
    unitPriceUsd: 0.01,
    librarySecret: 'not used here',
    seed: { handles: 2, minReportsPerHandle: 2, maxReportsPerHandle: 3 },
  });
  // The helpers only need these fields of a stack.
  stack = {
    baseUrl: service.baseUrl,
    chain,
    chainId: chain.chainId,
    network: chain.network,
    asset: chain.asset,
    payTo: chain.payTo,
    buyerKeys: chain.buyerKeys,
  } as Stack;
});

afterAll(async () => {
  await service?.close();
  await chain?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a settlement whose transaction is lost', () => {
  it('fails alone: concurrent settlements still complete, and the chain keeps settling', async () => {
    const shelf = await getJson(`${stack.baseUrl}/api/intel/list`);
    const handle = (shelf.body['entries'] as { username: string }[])[0]!.username;
    const url = `${stack.baseUrl}/api/intel/reports?username=${handle}&select=range&from=2000-01-01`;
    const challenge = await getJson(url);
    const amount = BigInt((challenge.body['accepts'] as { amount: string }[])[0]!.amount);
    const signed = await Promise.all(
      Array.from({ length: 8 }, (_, i) => signAuthorization(stack, i % 4, amount)),
    );
    const before = await Promise.all([0, 1, 2, 3].map((i) => tokenBalance(stack, buyer(stack, i).address)));

    dropNextSend = true;
    const answers = await Promise.all(
      signed.map((s) =>
        getJson(url, { 'X-402-Payment': v2Payment(stack, s, amount) }).catch((error: unknown) => ({
          status: -1,
          body: { error: String(error) },
        })),
      ),
    );
    expect(dropped).toBe(1);
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(answers.map((a) => a.body['error'])),
    ).toHaveLength(7);
    const failed = answers.find((a) => a.status !== 200)!;
    expect([failed.status, failed.body['error']]).toEqual([402, 'settlement_failed']);

    // The failed payment was not charged and its nonce is free again: the same payment now settles.
    const failedIndex = answers.indexOf(failed);
    const retried = await getJson(url, { 'X-402-Payment': v2Payment(stack, signed[failedIndex]!, amount) });
    expect(retried.status).toBe(200);
    for (const i of [0, 1, 2, 3]) {
      expect(await tokenBalance(stack, buyer(stack, i).address)).toBe(before[i]! - 2n * amount);
    }
  }, 40_000);
});

describe('a settlement broadcast but not confirmed', () => {
  it('keeps its nonce taken, names its transaction, and answers a resend with 409, never a second settlement', async () => {
    const shelf = await getJson(`${stack.baseUrl}/api/intel/list`);
    const handle = (shelf.body['entries'] as { username: string }[])[1]!.username;
    const url = `${stack.baseUrl}/api/intel/reports?username=${handle}&select=all`;
    const challenge = await getJson(url);
    const amount = BigInt((challenge.body['accepts'] as { amount: string }[])[0]!.amount);
    const signed = await signAuthorization(stack, 3, amount);
    const payer = buyer(stack, 3).address;
    const before = await tokenBalance(stack, payer);

    loseReceipts = true;
    let lost;
    try {
      lost = await getJson(url, { 'X-402-Payment': v2Payment(stack, signed, amount) });
    } finally {
      loseReceipts = false;
    }
    expect(lost.status).toBe(402);
    expect(lost.body).toMatchObject({
      error: 'settlement_failed',
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(String(lost.body['message'])).toMatch(/broadcast .* may still settle/);

    const resent = await getJson(url, { 'X-402-Payment': v2Payment(stack, signed, amount) });
    expect([resent.status, resent.body['error']]).toEqual([409, 'payment_already_used']);
    const receipt = await chain.clients.publicClient.waitForTransactionReceipt({
      hash: lost.body['transaction'] as `0x${string}`,
    });
    expect(receipt.status).toBe('success');
    expect(await tokenBalance(stack, payer)).toBe(before - amount);
    const used = await chain.clients.publicClient.readContract({
      address: stack.asset,
      abi: chain.token.contract.abi,
      functionName: 'authorizationState',
      args: [payer, signed.authorization.nonce],
    });
    expect(used).toBe(true);
  }, 40_000);
});
