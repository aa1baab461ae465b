/**
 * What happens after the payment leaves, against an official x402 seller behind a gateway that loses its
 * answer: the origin settled, and the gateway answers 502, 504, 429, 409, 400, 404 or 402 instead. Without a
 * chain the purchase is in doubt, counts toward the caps and blocks a rebuy; with a chain, the chain decides.
 * Every case is checked on chain. And a contract (ERC-1271) wallet pays through the desk, to the official
 * facilitator and to the reference service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { privateKeyToAccount } from 'viem/accounts';
import { createDeskCore, type DeskCore } from '../../src/core';
import type { ExternalSignRequest } from '../../src/shared/rpc';
import { startStack, type Stack } from '../../src/service/stack';
import { closedPortUrl } from '../closed-port';
import { deskOptions, failure, firstHandle, ledgerRows, PASSPHRASE, tempDir } from '../core/helpers';
import {
  contractWalletSignature,
  deployContractWallet,
  startBaseSepolia,
  startInteropPeer,
  type BaseSepolia,
  type InteropPeer,
} from './fixtures';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Gateway {
  url: string;
  /** The status the gateway answers a paid request with, after the origin has answered it. */
  lose: number | null;
  /** A refusal the gateway answers a paid request with itself, never passing it to the origin. */
  refuse: { status: number; error: string } | null;
}

/** A gateway in front of the peer: every request passes both ways, headers included, unless it loses a paid answer. */
async function startGateway(origin: string): Promise<Gateway> {
  const gateway: Gateway = { url: '', lose: null, refuse: null };
  const server: Server = createServer((req, res) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value;
    }
    const paid = 'payment-signature' in headers;
    if (paid && gateway.refuse) {
      res.writeHead(gateway.refuse.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: gateway.refuse.error }));
      return;
    }
    void fetch(`${origin}${req.url ?? '/'}`, { headers })
      .then(async (upstream) => {
        const body = await upstream.text();
        if (paid && gateway.lose !== null) {
          res.writeHead(gateway.lose, { 'Content-Type': 'text/html' });
          res.end(`<html><body>${gateway.lose}</body></html>`);
          return;
        }
        const out: Record<string, string> = {};
        upstream.headers.forEach((value, name) => {
          if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))
            out[name] = value;
        });
        res.writeHead(upstream.status, out);
        res.end(body);
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gateway.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return gateway;
}

const LOST_ANSWERS = [502, 504, 429, 409, 400, 404, 402];
/** One report per lost answer, each bought once by each desk. */
const TARGETS: [string, string][] = [
  ...[1, 2, 3, 4, 5, 6].map((n): [string, string] => ['carol_watch', `carol_watch-r${n}`]),
  ['bob_osint', 'bob_osint-r1'],
];

describe('a gateway loses the answer after an official seller settled', () => {
  let chain: BaseSepolia;
  let peer: InteropPeer;
  let gateway: Gateway;

  beforeAll(async () => {
    chain = await startBaseSepolia();
    cleanups.push(() => chain.stop());
    peer = await startInteropPeer({ chain, form: 'stock' });
    cleanups.push(() => peer.stop());
    gateway = await startGateway(peer.url);
  });

  async function deskOn(
    rpcUrl: string,
    buyerIndex: number,
    now?: () => number,
  ): Promise<{ desk: DeskCore; dataDir: string }> {
    const data = tempDir('interop-gateway-');
    cleanups.push(data.remove);
    const desk = await createDeskCore({
      dataDir: data.dir,
      serviceUrl: gateway.url,
      rpcUrl,
      attempts: 1,
      walletKdfCost: 'fast-insecure-for-tests',
      chainTimeoutMs: 1_000,
      ...(now ? { now } : {}),
    });
    cleanups.push(() => desk.close());
    const buyer = chain.accounts.buyers[buyerIndex]!;
    await chain.fund(buyer.address, 1_000_000n);
    await desk.handlers['wallet.import']({ privateKey: buyer.key, passphrase: PASSPHRASE });
    return { desk, dataDir: data.dir };
  }

  /** One report bought while the gateway answers `status` in place of the origin's paid answer: in doubt. */
  async function payThroughLosingGateway(
    desk: DeskCore,
    status: number,
    handle: string,
    selection: { kind: 'ids'; ids: string[] },
  ): Promise<void> {
    gateway.lose = status;
    try {
      const quote = await desk.handlers['quote.get']({ handle, selection });
      const outcome = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      expect(outcome.status, `HTTP ${status}`).toBe('in_doubt');
    } finally {
      gateway.lose = null;
    }
  }

  it('without a chain: in doubt, counted in the caps, and a rebuy refused, whatever the gateway said', async () => {
    const { desk, dataDir } = await deskOn(await closedPortUrl(), 0);
    const buyer = chain.accounts.buyers[0]!.address;
    for (const [index, status] of LOST_ANSWERS.entries()) {
      const [handle, id] = TARGETS[index]!;
      const selection = { kind: 'ids' as const, ids: [id] };
      const balance = await chain.balanceOf(buyer);
      await payThroughLosingGateway(desk, status, handle, selection);
      // The origin settled: the chain shows the money moved, whatever the gateway answered.
      expect(await chain.balanceOf(buyer)).toBe(balance - 10_000n);
      const row = ledgerRows(dataDir).at(-1)!;
      expect(await chain.authorizationState(buyer, row.nonce as `0x${string}`)).toBe(true);
      expect(row.state).toBe('in_doubt');
      // Counted toward the caps: a daily cap of what the in-doubt purchases hold puts any further one over it.
      await desk.handlers['settings.update']({ dailyCapUnits: String((index + 1) * 10_000) });
      const next = await desk.handlers['quote.get']({
        handle: 'alice_intel',
        selection: { kind: 'ids', ids: ['alice_intel-r1'] },
      });
      expect(next.overDailyCap, `HTTP ${status}`).toBe(true);
      // And the same reports are not paid for again.
      const rebuy = await desk.handlers['quote.get']({ handle, selection, includeOwned: true });
      expect(rebuy.unresolved?.purchaseId).toBe(row.id);
      const refused = await failure(
        desk.handlers['purchase.start']({ quoteId: rebuy.quoteId, confirmedAmount: rebuy.amount }),
      );
      expect(refused.code).toBe('purchase_in_doubt');
      await desk.handlers['settings.update']({ dailyCapUnits: '20000000', passphrase: PASSPHRASE });
    }
    expect(peer.paidRequests.filter((r) => r.status === 200)).toHaveLength(LOST_ANSWERS.length);
  });

  it('without a chain, a refusal is believed only once the desk clock is well past validBefore', async () => {
    let now = Date.now();
    const { desk, dataDir } = await deskOn(await closedPortUrl(), 2, () => now);
    const buyer = chain.accounts.buyers[2]!.address;
    const balance = await chain.balanceOf(buyer);
    gateway.refuse = { status: 402, error: 'insufficient_funds' };
    const quote = await desk.handlers['quote.get']({
      handle: 'alice_intel',
      selection: { kind: 'ids', ids: ['alice_intel-r2'] },
    });
    const outcome = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    gateway.refuse = null;
    expect(outcome.status).toBe('in_doubt');
    expect((outcome as { message: string }).message).toMatch(
      /balance is below the price \(insufficient_funds\)/,
    );
    const row = ledgerRows(dataDir)[0]!;
    const closesAt = row.valid_before * 1000;

    // Just past validBefore the desk's clock alone may still be wrong: in doubt, and the refusal is named.
    now = closesAt + 60_000;
    let view = (await desk.handlers['purchases.reconcile']({})).purchases[0]!;
    expect(view.state).toBe('in_doubt');
    expect(view.waitingFor).toMatchObject({
      kind: 'chain',
      refusal: expect.stringMatching(/insufficient_funds/),
    });

    // Well past it (validBefore plus the margin), the refusal stands and no money is counted as moved.
    now = closesAt + 5 * 60_000 + 1_000;
    view = (await desk.handlers['purchases.reconcile']({})).purchases[0]!;
    expect(view.state).toBe('failed');
    expect(view.error).toMatch(/refused the payment/);
    expect(await chain.balanceOf(buyer)).toBe(balance);
    expect(await chain.authorizationState(buyer, row.nonce as `0x${string}`)).toBe(false);
  });

  it('with a chain: the chain decides, and reconciliation finds each one paid but not delivered', async () => {
    const { desk, dataDir } = await deskOn(chain.rpcUrl, 1);
    const buyer = chain.accounts.buyers[1]!.address;
    for (const [index, status] of LOST_ANSWERS.entries()) {
      const [handle, id] = TARGETS[index]!;
      const balance = await chain.balanceOf(buyer);
      await payThroughLosingGateway(desk, status, handle, { kind: 'ids', ids: [id] });
      expect(await chain.balanceOf(buyer)).toBe(balance - 10_000n);
    }
    const reconciled = await desk.handlers['purchases.reconcile']({});
    const rows = ledgerRows(dataDir);
    expect(rows).toHaveLength(LOST_ANSWERS.length);
    for (const row of rows) {
      expect(await chain.authorizationState(buyer, row.nonce as `0x${string}`)).toBe(true);
      const view = reconciled.purchases.find((p) => p.id === row.id)!;
      expect(view.state).toBe('in_doubt');
      expect(view.waitingFor?.kind).toBe('redelivery');
      expect(view.movedUnits).toBe('10000');
    }
  });
});

describe('a contract (ERC-1271) wallet pays through the desk', () => {
  async function payFromContractWallet(
    desk: DeskCore,
    handle: string,
    ids: string[],
    owner: ReturnType<typeof privateKeyToAccount>,
  ) {
    const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids } });
    const started = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(started.status).toBe('needs_signature');
    const request = (started as { request: ExternalSignRequest }).request;
    const signature = await contractWalletSignature(owner, {
      ...request.typedData,
      domain: {
        ...request.typedData.domain,
        verifyingContract: request.typedData.domain.verifyingContract as `0x${string}`,
      },
    });
    expect((signature.length - 2) / 2).not.toBe(65);
    return desk.handlers['purchase.submitSignature']({ purchaseId: request.purchaseId, signature });
  }

  it('to an official seller: the signature is checked on chain and the official facilitator settles it', async () => {
    const chain = await startBaseSepolia();
    cleanups.push(() => chain.stop());
    const peer = await startInteropPeer({ chain, form: 'stock' });
    cleanups.push(() => peer.stop());
    const owner = chain.accounts.walletOwner.account;
    const wallet = await deployContractWallet(chain, owner);
    await chain.fund(wallet, 1_000_000n);
    const data = tempDir('interop-contract-wallet-');
    cleanups.push(data.remove);
    const desk = await createDeskCore({
      dataDir: data.dir,
      serviceUrl: peer.url,
      rpcUrl: chain.rpcUrl,
      attempts: 1,
      walletKdfCost: 'fast-insecure-for-tests',
    });
    cleanups.push(() => desk.close());
    await desk.handlers['wallet.useExternal']({ address: wallet });

    const outcome = await payFromContractWallet(
      desk,
      'carol_watch',
      ['carol_watch-r1', 'carol_watch-r2'],
      owner,
    );
    expect(outcome.status).toBe('completed');
    expect(await chain.balanceOf(wallet)).toBe(1_000_000n - 20_000n);

    // A signature the wallet does not accept is refused by the desk before anything is sent.
    const quote = await desk.handlers['quote.get']({
      handle: 'alice_intel',
      selection: { kind: 'ids', ids: ['alice_intel-r1'] },
    });
    const started = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    const request = (started as { request: ExternalSignRequest }).request;
    const stranger = chain.accounts.buyers[4]!.account;
    const forged = await contractWalletSignature(stranger, {
      ...request.typedData,
      domain: {
        ...request.typedData.domain,
        verifyingContract: request.typedData.domain.verifyingContract as `0x${string}`,
      },
    });
    const sentBefore = peer.paidRequests.length;
    const refused = await failure(
      desk.handlers['purchase.submitSignature']({ purchaseId: request.purchaseId, signature: forged }),
    );
    expect(refused.code).toBe('invalid_signature');
    expect(peer.paidRequests).toHaveLength(sentBefore);
  });

  it('to the reference service, on the demo chain, through the token’s bytes-signature form', async () => {
    const stack: Stack = await startStack({
      seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    });
    cleanups.push(() => stack.stop());
    const owner = privateKeyToAccount(stack.buyerKeys[0]!);
    const wallet = await deployContractWallet(
      { rpcUrl: stack.rpcUrl, chainId: stack.chainId },
      owner,
      stack.buyerKeys[1]!,
    );
    await stack.chain.clients.walletClient.writeContract({
      address: stack.asset,
      abi: stack.chain.token.contract.abi,
      functionName: 'mint',
      args: [wallet, 1_000_000n],
    });
    const data = tempDir('interop-contract-wallet-ref-');
    cleanups.push(data.remove);
    const desk = await createDeskCore(deskOptions(stack, data.dir));
    cleanups.push(() => desk.close());
    await desk.handlers['wallet.useExternal']({ address: wallet });
    const { handle, ids } = await firstHandle(stack);
    const outcome = await payFromContractWallet(desk, handle, ids.slice(0, 1), owner);
    expect(outcome.status).toBe('completed');
  });
});
