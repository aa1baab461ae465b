/**
 * The service broadcasts the settlement, then loses the chain's answers about its receipt (a dropped RPC
 * connection), and answers the desk with its own settlement_failed. The transfer did happen: the desk must
 * hold the purchase in doubt with the service's transaction, and never call it failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, custom, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startDemoChain, type DemoChain } from '../../src/service/chain/demo-chain';
import { localChain } from '../../src/service/chain/token';
import { startService, type ServiceOnChain, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { balanceOf, deskWithWallet, failure, tempDir } from './helpers';

let chain: DemoChain;
let service: ServiceOnChain;
let serviceData: ReturnType<typeof tempDir>;
let deskData: ReturnType<typeof tempDir>;
let stack: Stack;
let desk: DeskCore;
let loseReceipts = false;

beforeAll(async () => {
  chain = await startDemoChain({ buyerCount: 1 });
  const viemChain = localChain(chain.chainId, chain.rpcUrl);
  const rpc = http(chain.rpcUrl, { retryCount: 0 })({ chain: viemChain });
  const faulty: DemoChain = {
    ...chain,
    clients: {
      ...chain.clients,
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
    },
  };
  serviceData = tempDir('service-unconfirmed-');
  service = await startService(faulty, {
    dataDir: serviceData.dir,
    unitPriceUsd: 0.01,
    librarySecret: 'not used here',
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
  });
  // The desk helpers only need these fields of a stack.
  stack = {
    baseUrl: service.baseUrl,
    rpcUrl: chain.rpcUrl,
    chain,
    asset: chain.asset,
    buyerKeys: chain.buyerKeys,
  } as Stack;
  deskData = tempDir('desk-unconfirmed-');
  ({ desk } = await deskWithWallet(stack, deskData.dir));
});
afterAll(async () => {
  await desk?.close();
  await service?.close();
  await chain?.stop();
  serviceData?.remove();
  deskData?.remove();
});

describe("the service's own settlement_failed after it broadcast the transfer", () => {
  it('is held in doubt with the transaction, reconciled as paid, and blocks paying again', async () => {
    const handle = (await desk.handlers['shelf.list']({})).entries[0]!.username;
    const selection = { kind: 'all' as const };
    const quote = await desk.handlers['quote.get']({ handle, selection });
    const payer = privateKeyToAccount(chain.buyerKeys[0]!).address;
    const before = await balanceOf(stack, payer);

    loseReceipts = true;
    let outcome;
    try {
      outcome = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
    } finally {
      loseReceipts = false;
    }
    expect(outcome.status).toBe('in_doubt');
    if (outcome.status !== 'in_doubt') return;
    const txHash = outcome.purchase.txHash as `0x${string}`;
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(outcome.message).toContain(txHash);
    expect(outcome.purchase.movedUnits).toBeNull();
    const receipt = await chain.clients.publicClient.waitForTransactionReceipt({ hash: txHash });
    expect(receipt.status).toBe('success');
    expect(await balanceOf(stack, payer)).toBe(before - BigInt(quote.amount));

    const again = await desk.handlers['quote.get']({ handle, selection });
    expect(
      await failure(
        desk.handlers['purchase.start']({ quoteId: again.quoteId, confirmedAmount: again.amount }),
      ),
    ).toMatchObject({ code: 'purchase_in_doubt' });

    const reconciled = (await desk.handlers['purchases.reconcile']({})).purchases[0]!;
    expect(reconciled).toMatchObject({ state: 'in_doubt', txHash, waitingFor: { kind: 'redelivery' } });
    expect(await balanceOf(stack, payer)).toBe(before - BigInt(quote.amount));
  });
});
