/**
 * Guarantees of the money path with nothing else to prove them: a purchase needs a wallet and a quote this
 * desk gave out, a quote pays only the service it came from, a signature that comes back too late is refused
 * before anything is sent, and reconciliation believes only an RPC on the purchase's own chain. Each is
 * checked where the money is: the buyer's balance on chain, the payments that reached the service, and the
 * ledger rows in desk.db.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import type { ExternalSignRequest } from '../../src/shared/rpc';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCoreOptions } from '../../src/core';
import { startAnvil } from '../../src/service/chain/anvil';
import { ACCOUNT_INDEX, anvilDevKey } from '../../src/service/chain/accounts';
import { chainClients, deployDemoToken } from '../../src/service/chain/token';
import {
  balanceOf,
  deskFor,
  deskWithWallet,
  failure,
  ledgerRows,
  firstHandle,
  signExternal,
  tempDir,
} from './helpers';
import { startHostileProxy, type HostileProxy } from './hostile-proxy';
import { sameDayClock } from './clock';

let stack: Stack;
let proxy: HostileProxy;
let handle: string;
let ids: string[];
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 8, maxReportsPerHandle: 8 },
    buyerCount: 2,
  });
  proxy = await startHostileProxy(stack.baseUrl);
  ({ handle, ids } = await firstHandle(stack));
});
afterEach(async () => {
  proxy.paidAnswer = null;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
});

const buyer = (index: number) => privateKeyToAccount(stack.buyerKeys[index]!).address;

async function dataDir(): Promise<string> {
  const data = tempDir('desk-guarantees-');
  cleanups.push(data.remove);
  return data.dir;
}

async function walletDesk(options: Partial<DeskCoreOptions> = {}) {
  const dir = await dataDir();
  const { desk, address } = await deskWithWallet(stack, dir, 0, { serviceUrl: proxy.url, ...options });
  cleanups.push(() => desk.close());
  return { desk, dir, payer: address };
}

/** Nothing left this desk: no payment reached the service, no ledger row, the buyer's balance as it was. */
async function expectNothingPaid(dir: string, payer: `0x${string}`, before: bigint, payments: number) {
  expect(proxy.paymentsSeen.length).toBe(payments);
  expect(ledgerRows(dir)).toEqual([]);
  expect(await balanceOf(stack, payer)).toBe(before);
}

describe('a purchase needs a wallet and a quote from this desk', () => {
  it('refuses with no_wallet when no wallet was imported or connected, before anything is signed', async () => {
    const dir = await dataDir();
    const desk = await deskFor(stack, dir, { serviceUrl: proxy.url });
    cleanups.push(() => desk.close());
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [ids[0]!] } });
    const before = { balance: await balanceOf(stack, buyer(0)), payments: proxy.paymentsSeen.length };
    const error = await failure(
      desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
    );
    expect(error).toMatchObject({ code: 'no_wallet', kind: 'wallet' });
    expect(error.message).toBe('Connect a wallet before buying.');
    await expectNothingPaid(dir, buyer(0), before.balance, before.payments);
  });

  it('refuses with quote_unknown a quote id it never gave out, or one another desk gave out', async () => {
    const { desk, dir, payer } = await walletDesk();
    const other = await walletDesk();
    const foreign = await other.desk.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: [ids[1]!] },
    });
    const before = { balance: await balanceOf(stack, payer), payments: proxy.paymentsSeen.length };
    for (const quoteId of [randomUUID(), foreign.quoteId]) {
      const error = await failure(
        desk.handlers['purchase.start']({ quoteId, confirmedAmount: foreign.amount }),
      );
      expect(error).toMatchObject({ code: 'quote_unknown', kind: 'refused' });
      expect(error.message).toMatch(/ask for a new price/);
    }
    await expectNothingPaid(dir, payer, before.balance, before.payments);
  });
});

describe('a quote pays only the service it came from', () => {
  it('refuses a quote from the service selected before, after the service URL changed', async () => {
    const { desk, dir, payer } = await walletDesk();
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [ids[2]!] } });
    // The same reports are on sale at the newly selected service, at the same price and payee.
    await desk.handlers['settings.update']({ serviceUrl: stack.baseUrl });
    const before = { balance: await balanceOf(stack, payer), payments: proxy.paymentsSeen.length };
    const error = await failure(
      desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
    );
    expect(error).toMatchObject({ code: 'quote_other_service', kind: 'refused' });
    await expectNothingPaid(dir, payer, before.balance, before.payments);
    // Back on the service it came from, the same quote still pays, there and once.
    await desk.handlers['settings.update']({ serviceUrl: proxy.url });
    const paid = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(paid.status).toBe('completed');
    expect(proxy.paymentsSeen.length).toBe(before.payments + 1);
    expect(await balanceOf(stack, payer)).toBe(before.balance - BigInt(quote.amount));
    expect(ledgerRows(dir)).toMatchObject([{ service_url: proxy.url, state: 'completed' }]);
  });
});

describe('an external signature that comes back late', () => {
  it('is refused before sending once the payment window is about to close, and nothing moves', async () => {
    const dir = await dataDir();
    const clock = { now: Date.now() };
    const desk = await deskFor(stack, dir, { serviceUrl: proxy.url, now: () => clock.now });
    cleanups.push(() => desk.close());
    const account = privateKeyToAccount(stack.buyerKeys[1]!);
    await desk.handlers['wallet.useExternal']({ address: account.address });
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [ids[3]!] } });
    const started = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    if (started.status !== 'needs_signature') throw new Error('expected a signature request');
    const { typedData, purchaseId } = started.request;
    const signature = await account.signTypedData({
      ...typedData,
      domain: { ...typedData.domain, verifyingContract: typedData.domain.verifyingContract as `0x${string}` },
    });
    // The person took almost the whole window to answer: the chain would still take it, the desk does not,
    // as it could expire on the way.
    const validBefore = Number(typedData.message.validBefore) * 1000;
    clock.now = validBefore - 5_000;
    const before = { balance: await balanceOf(stack, account.address), payments: proxy.paymentsSeen.length };
    const error = await failure(desk.handlers['purchase.submitSignature']({ purchaseId, signature }));
    expect(error).toMatchObject({ code: 'authorization_expired', kind: 'refused' });
    expect(error.message).toMatch(/Nothing was sent/);
    await expectNothingPaid(dir, account.address, before.balance, before.payments);
  });
});

describe('a signature request the window gave up on', () => {
  it('is forgotten: its signature, given later, is refused, and the same reports can be bought again', async () => {
    const dir = await dataDir();
    const desk = await deskFor(stack, dir, { serviceUrl: proxy.url });
    cleanups.push(() => desk.close());
    const account = privateKeyToAccount(stack.buyerKeys[1]!);
    await desk.handlers['wallet.useExternal']({ address: account.address });
    const selection = { kind: 'ids' as const, ids: [ids[6]!] };
    const quote = await desk.handlers['quote.get']({ handle, selection });
    const started = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    if (started.status !== 'needs_signature') throw new Error('expected a signature request');
    const { purchaseId } = started.request;
    expect(await desk.handlers['purchase.abandonSignature']({ purchaseId })).toEqual({ abandoned: true });
    expect(await desk.handlers['purchase.abandonSignature']({ purchaseId })).toEqual({ abandoned: false });
    const before = { balance: await balanceOf(stack, account.address), payments: proxy.paymentsSeen.length };
    const error = await failure(
      desk.handlers['purchase.submitSignature']({
        purchaseId,
        signature: await signExternal(account, started.request),
      }),
    );
    expect(error).toMatchObject({ code: 'purchase_unknown', kind: 'refused' });
    await expectNothingPaid(dir, account.address, before.balance, before.payments);
    // The quote it held was released: the same reports are bought with a fresh request.
    const again = await desk.handlers['quote.get']({ handle, selection });
    const restarted = await desk.handlers['purchase.start']({
      quoteId: again.quoteId,
      confirmedAmount: again.amount,
    });
    if (restarted.status !== 'needs_signature') throw new Error('expected a signature request');
    const paid = await desk.handlers['purchase.submitSignature']({
      purchaseId: restarted.request.purchaseId,
      signature: await signExternal(account, restarted.request),
    });
    expect(paid.status).toBe('completed');
  });
});

describe('an external signature judged again when it comes back', () => {
  it('is refused over the daily cap when the cap was lowered while it waited, and nothing moves', async () => {
    const dir = await dataDir();
    // One local day for the whole test: "spent today" is the day of the first purchase (clock.ts).
    const desk = await deskFor(stack, dir, { serviceUrl: proxy.url, now: sameDayClock() });
    cleanups.push(() => desk.close());
    const account = privateKeyToAccount(stack.buyerKeys[1]!);
    await desk.handlers['wallet.useExternal']({ address: account.address });
    await desk.handlers['settings.update']({ dailyCapUnits: '25000' });
    const request = async (id: string): Promise<ExternalSignRequest> => {
      const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [id] } });
      const started = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      if (started.status !== 'needs_signature') throw new Error('expected a signature request');
      return started.request;
    };
    const first = await request(ids[4]!);
    const start = await balanceOf(stack, account.address);
    const paid = await desk.handlers['purchase.submitSignature']({
      purchaseId: first.purchaseId,
      signature: await signExternal(account, first),
    });
    expect(paid.status).toBe('completed');
    // The second fits when asked for; while the wallet waits, the daily cap is lowered below it.
    const second = await request(ids[5]!);
    await desk.handlers['settings.update']({ dailyCapUnits: '15000' });
    const before = { balance: await balanceOf(stack, account.address), payments: proxy.paymentsSeen.length };
    expect(before.balance).toBe(start - 10_000n);

    const error = await failure(
      desk.handlers['purchase.submitSignature']({
        purchaseId: second.purchaseId,
        signature: await signExternal(account, second),
      }),
    );
    expect(error).toMatchObject({ code: 'over_daily_cap', kind: 'refused' });
    expect(error.message).toContain('With $0.01 already spent today, $0.01 more goes over');
    expect(proxy.paymentsSeen.length).toBe(before.payments);
    expect(await balanceOf(stack, account.address)).toBe(before.balance);
    expect(ledgerRows(dir).map((row) => row.state)).toEqual(['completed']);
  });
});

describe('reconciliation asks only the chain the purchase was paid on', () => {
  it('keeps a paid purchase in doubt when the RPC serves another chain with the same token address', async () => {
    const dir = await dataDir();
    const payer = buyer(0);
    const before = await balanceOf(stack, payer);
    {
      const { desk } = await deskWithWallet(stack, dir, 0, { serviceUrl: proxy.url });
      try {
        // The service settles; a gateway loses its answer: paid on chain, held in doubt.
        proxy.paidAnswer = { status: 502, body: '<h1>Bad gateway</h1>' };
        const quote = await desk.handlers['quote.get']({
          handle,
          selection: { kind: 'ids', ids: [ids[4]!] },
        });
        const outcome = await desk.handlers['purchase.start']({
          quoteId: quote.quoteId,
          confirmedAmount: quote.amount,
        });
        expect(outcome.status).toBe('in_doubt');
      } finally {
        proxy.paidAnswer = null;
        await desk.close();
      }
    }
    expect(await balanceOf(stack, payer)).toBe(before - 10_000n);

    // Another local chain (id 31338) where the same deployer put a token at the very same address, and where
    // this authorization was of course never used.
    const wrong = await startAnvil({ chainId: 31338, accounts: ACCOUNT_INDEX.firstBuyer + 1 });
    cleanups.push(() => wrong.stop());
    const token = await deployDemoToken(
      chainClients(31338, wrong.rpcUrl, anvilDevKey(ACCOUNT_INDEX.facilitator)),
    );
    expect(token.address).toBe(stack.asset);

    // Long after the window closed on the desk's clock: were the wrong chain believed, "expired unused".
    const desk = await deskFor(stack, dir, {
      serviceUrl: proxy.url,
      rpcUrl: wrong.rpcUrl,
      now: () => Date.now() + 3_600_000,
    });
    cleanups.push(() => desk.close());
    const { purchases } = await desk.handlers['purchases.reconcile']({});
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({
      state: 'in_doubt',
      waitingFor: { kind: 'chain', rpcUrl: wrong.rpcUrl },
    });
    expect(purchases[0]?.error).toMatch(/serves chain 31338, not eip155:31337/);
    expect(ledgerRows(dir)).toMatchObject([{ state: 'in_doubt', amount: '10000', payer }]);
    expect(await balanceOf(stack, payer)).toBe(before - 10_000n);
  });
});
