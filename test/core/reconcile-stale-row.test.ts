/**
 * Reconciliation in one process while another process on the same data folder pays: the reconciler reads the
 * unsettled purchases once, then asks the chain about each in turn. A purchase of the other process that was
 * just signed when the list was read may have been sent, paid and finished by the time its turn comes; judged
 * from the old list ("signed, and nobody at work on it") it would be marked failed though it paid. Found by
 * the chaos run with three processes on one folder (seed 40), under load.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskCore } from '../../src/core';
import { startStack, type Stack } from '../../src/service/stack';
import { startFlakyProxy, type FlakyProxy } from './flaky-proxy';
import { deskFor, firstHandle, ledgerRows, onPurchaseSteps, PASSPHRASE, tempDir } from './helpers';

/** A chain RPC in front of anvil whose answers wait while it is closed, as a provider slow to answer. */
class GatedRpc {
  url = '';
  private open = true;
  private waiting: (() => void)[] = [];
  private readonly server: Server;

  constructor(target: string) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const forward = () =>
          void fetch(target, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: Buffer.concat(chunks),
          })
            .then(async (answer) => {
              res.writeHead(answer.status, { 'content-type': 'application/json' });
              res.end(await answer.text());
            })
            .catch(() => req.socket.destroy());
        if (this.open) forward();
        else this.waiting.push(forward);
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): void {
    this.open = false;
  }

  release(): void {
    this.open = true;
    for (const forward of this.waiting.splice(0)) forward();
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let stack: Stack;
let flaky: FlakyProxy;
let rpc: GatedRpc;
const folder = tempDir('desk-reconcile-stale-');
const desks: DeskCore[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
    buyerCount: 1,
    mining: 'auto',
  });
  flaky = await startFlakyProxy(stack.baseUrl);
  rpc = new GatedRpc(stack.rpcUrl);
  await rpc.start();
}, 120_000);
afterAll(async () => {
  for (const desk of desks) await desk.close().catch(() => undefined);
  await flaky?.close();
  await rpc?.stop();
  await stack?.stop();
  folder.remove();
});

describe('reconciling while another process on the folder pays', () => {
  it('leaves a purchase that finished meanwhile as it finished', async () => {
    const { handle, ids } = await firstHandle(stack);
    let reconciling: Promise<unknown> | null = null;
    // The paying process. The reconciling one reads the chain through an RPC that is slow to answer.
    const payer = await deskFor({ ...stack, baseUrl: flaky.url }, folder.dir, {
      timeoutMs: 3_000,
      onEvent: onPurchaseSteps((_purchaseId, step) => {
        if (step === 'ledger_written' && reconciling === null && flaky.mode === 'pass') {
          // The other process reads the unsettled purchases now, this one's just signed among them.
          reconciling = reconciler.handlers['purchases.reconcile']({});
        }
      }),
    });
    desks.push(payer);
    await payer.handlers['wallet.import']({ privateKey: stack.buyerKeys[0]!, passphrase: PASSPHRASE });
    const reconciler = await deskFor({ ...stack, rpcUrl: rpc.url }, folder.dir, { timeoutMs: 3_000 });
    desks.push(reconciler);

    // First an answer lost on the way: a purchase in doubt, which reconciliation asks the chain about.
    const lostQuote = await payer.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(0, 1) },
    });
    flaky.mode = 'stall';
    const lost = await payer.handlers['purchase.start']({
      quoteId: lostQuote.quoteId,
      confirmedAmount: lostQuote.amount,
    });
    expect(lost.status).toBe('in_doubt');
    flaky.mode = 'pass';

    // The reconciler's chain answers wait while the payer signs, sends and finishes its next purchase.
    rpc.close();
    const quote = await payer.handlers['quote.get']({
      handle,
      selection: { kind: 'ids', ids: ids.slice(1, 2) },
    });
    const paid = await payer.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    if (paid.status !== 'completed') throw new Error(`expected a completed purchase, got ${paid.status}`);
    expect(reconciling).not.toBeNull();
    rpc.release();
    await reconciling;

    const row = ledgerRows(folder.dir).find((r) => r.id === paid.purchase.id);
    expect(row?.state).toBe('completed');
  }, 120_000);
});
