/**
 * A payment's terms (the 402) and its outcome (the chain) never travel in plain http off this computer
 * (decision 0040): the service URL and the chain RPC are refused on save, for a run, and, when an older version
 * saved one, at use before anything is sent or signed. `http://0.0.0.0:port` stands for another host: it is
 * not loopback by name, yet reaches the test's listener, so a missing refusal shows as traffic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import { createDeskCore } from '../../src/core';
import { openDeskDb } from '../../src/core/db/open';
import { SettingsStore } from '../../src/core/settings/settings';
import {
  balanceOf,
  deskFor,
  deskOptions,
  deskWithWallet,
  failure,
  ledgerRows,
  PASSPHRASE,
  tempDir,
} from './helpers';
import { startFlakyProxy, type FlakyProxy } from './flaky-proxy';
import { startHostileProxy, withoutPaymentIdentifier } from './hostile-proxy';
import { DESK_CLOCK_EXPIRY_MARGIN_MS } from '../../src/core/payments/chain-state';

let stack: Stack;
let proxy: FlakyProxy;
let handle: string;
const dirs: ReturnType<typeof tempDir>[] = [];

/** The same listener, named as if it were another computer. */
const elsewhere = (url: string) => url.replace('127.0.0.1', '0.0.0.0');

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
  });
  proxy = await startFlakyProxy(stack.baseUrl);
  const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
    entries: { username: string }[];
  };
  handle = shelf.entries[0]!.username;
});
afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
  dirs.forEach((dir) => dir.remove());
});

function dataDir(): string {
  const dir = tempDir('desk-transport-');
  dirs.push(dir);
  return dir.dir;
}

/** What a version before the rule left in desk.db: settings saved without it. */
function savedBefore(dir: string, patch: { serviceUrl?: string; chainRpcUrl?: string }): void {
  const { db } = openDeskDb(path.join(dir, 'desk.db'));
  try {
    new SettingsStore(db).update(patch);
  } finally {
    db.close();
  }
}

describe('plain http off this computer', () => {
  it('is refused when Settings saves a service or a chain RPC, naming it and the remedy', async () => {
    const desk = await deskFor(stack, dataDir());
    const service = elsewhere(proxy.url);
    const refusedService = await failure(desk.handlers['settings.update']({ serviceUrl: service }));
    expect(refusedService.code).toBe('insecure_transport');
    expect(refusedService.message).toContain(service);
    expect(refusedService.message).toMatch(/https/);
    const rpc = elsewhere(stack.rpcUrl);
    const refusedRpc = await failure(desk.handlers['settings.update']({ chainRpcUrl: rpc }));
    expect(refusedRpc.code).toBe('insecure_transport');
    expect(refusedRpc.message).toContain(rpc);
    expect(await desk.handlers['settings.get']({})).toMatchObject({
      serviceUrl: stack.baseUrl,
      chainRpcUrl: null,
    });
    // https anywhere, and http on this computer (the demo), are saved.
    const saved = await desk.handlers['settings.update']({ chainRpcUrl: 'https://rpc.example.org' });
    expect(saved.chainRpcUrl).toBe('https://rpc.example.org');
    for (const local of ['http://localhost:8545', 'http://[::1]:8545', 'http://127.0.0.2:8545']) {
      expect((await desk.handlers['settings.update']({ chainRpcUrl: local })).chainRpcUrl).toBe(local);
    }
    expect(proxy.requests).toBe(0);
    await desk.close();
  });

  it("is refused as a run's service or chain RPC before the library opens", async () => {
    for (const options of [{ serviceUrl: elsewhere(proxy.url) }, { rpcUrl: elsewhere(stack.rpcUrl) }]) {
      const error = await failure(createDeskCore(deskOptions(stack, dataDir(), options)));
      expect(error.code).toBe('insecure_transport');
    }
    expect(proxy.requests).toBe(0);
  });

  it('saved as the service by an older version, is refused at use: no price is read from it', async () => {
    const dir = dataDir();
    savedBefore(dir, { serviceUrl: elsewhere(proxy.url) });
    const desk = await deskFor(stack, dir, { serviceUrl: undefined });
    const before = proxy.requests;
    const error = await failure(desk.handlers['quote.get']({ handle, selection: { kind: 'all' } }));
    expect(error.code).toBe('insecure_transport');
    expect(error.message).toContain(elsewhere(proxy.url));
    expect(error.message).toMatch(/in Settings/);
    expect(proxy.requests).toBe(before);
    // Settings still opens, to change it.
    expect((await desk.handlers['settings.get']({})).serviceUrl).toBe(elsewhere(proxy.url));
    await desk.close();
  });

  it('saved as the chain RPC by an older version, refuses a payment before anything is signed', async () => {
    const dir = dataDir();
    savedBefore(dir, { chainRpcUrl: elsewhere(stack.rpcUrl) });
    const desk = await deskFor(stack, dir, { rpcUrl: undefined });
    await desk.handlers['wallet.import']({ privateKey: stack.buyerKeys[0]!, passphrase: PASSPHRASE });
    const payer = privateKeyToAccount(stack.buyerKeys[0]!).address;
    const before = await balanceOf(stack, payer);
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
    const error = await failure(
      desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
    );
    expect(error.code).toBe('insecure_transport');
    expect(error.message).toContain(elsewhere(stack.rpcUrl));
    expect(error.message).toMatch(/Settings \(Chain RPC\)/);
    await desk.close();
    expect(ledgerRows(dir)).toEqual([]);
    expect(await balanceOf(stack, payer)).toBe(before);
  });

  it('saved as the chain RPC by an older version, is never asked about a purchase in doubt', async () => {
    const dir = dataDir();
    const gateway = await startHostileProxy(stack.baseUrl);
    const chain = await startFlakyProxy(stack.rpcUrl);
    try {
      // The service settles and a gateway answers 502: in doubt, with no chain known yet.
      gateway.mutate = withoutPaymentIdentifier;
      gateway.paidAnswer = { status: 502, body: '<h1>502</h1>' };
      const viaGateway = { ...stack, baseUrl: gateway.url };
      let ahead = 0;
      const clock = { rpcUrl: undefined, now: () => Date.now() + ahead };
      const { desk } = await deskWithWallet(viaGateway, dir, 0, clock);
      const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
      const outcome = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      await desk.close();
      expect(outcome.status).toBe('in_doubt');
      if (outcome.status !== 'in_doubt') return;

      savedBefore(dir, { chainRpcUrl: elsewhere(chain.url) });
      ahead = DESK_CLOCK_EXPIRY_MARGIN_MS + 10 * 60_000;
      const again = await deskFor(viaGateway, dir, clock);
      const row = (await again.handlers['purchases.reconcile']({})).purchases.find(
        (p) => p.id === outcome.purchase.id,
      )!;
      await again.close();
      expect(row.state).toBe('in_doubt');
      expect(row.waitingFor).toMatchObject({ kind: 'chain_access' });
      expect(row.waitingFor?.summary).toMatch(/waiting for an https chain RPC/);
      expect(row.error).toContain(`The chain RPC ${elsewhere(chain.url)} is plain http to another host`);
      expect(chain.requests).toBe(0);
    } finally {
      await gateway.close();
      await chain.close();
    }
  });
});
