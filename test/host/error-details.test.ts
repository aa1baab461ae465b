/**
 * A refusal's typed details survive the way out of core: the purchaser's quote_changed, through dispatch and
 * the web host's HTTP, arrives in the renderer's own RPC client with the fresh quote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore } from '../../src/core';
import { DeskError } from '../../src/core/base/errors';
import { startWebHost, type WebHost } from '../../src/host/server';
import { startDeskHost } from '../../src/host/desk-host';
import { dispatch } from '../../src/host/dispatch';
import { httpClient, RpcCallError } from '../../src/renderer/rpc/client';
import { unitsText } from '../../src/shared/money';
import { rpcInputs, type RpcHandlers } from '../../src/shared/rpc';
import { rpcErrorDetails } from '../../src/shared/rpc-errors';
import { deskOptions, deskWithWallet, tempDir } from '../core/helpers';
import { editChallenge, startHostileProxy, type HostileProxy } from '../core/hostile-proxy';
import { errorCodeFrom } from '../../src/shared/error-codes';

const PINNED = '0x1111111111111111111111111111111111111111';
const OFFERED = '0x2222222222222222222222222222222222222222';

describe('error details in dispatch', () => {
  it('passes the typed details of a detailed code and nothing else a DeskError holds', async () => {
    const thrown: Record<string, DeskError> = {
      'app.info': new DeskError('payee_changed', 'Payee changed.', 'refused', {
        pinned: PINNED,
        payTo: OFFERED,
        internal: 'stays in core',
      }),
      'settings.get': new DeskError('report_not_owned', 'Not yours.', 'usage', { path: '/home/x' }),
      'wallet.lock': new DeskError('over_daily_cap', 'Over.', 'refused', { cap: 'lots' }),
    };
    const handlers = Object.fromEntries(
      Object.keys(rpcInputs).map((method) => [
        method,
        async () => {
          throw thrown[method] ?? new DeskError(errorCodeFrom('not_here'), 'Not part of this test.');
        },
      ]),
    ) as unknown as RpcHandlers;
    expect(await dispatch(handlers, 'app.info', {})).toEqual({
      ok: false,
      error: {
        code: 'payee_changed',
        message: 'Payee changed.',
        details: { pinned: PINNED, payTo: OFFERED },
      },
    });
    // Another code's details, and details that do not fit their code's shape, do not cross.
    expect(await dispatch(handlers, 'settings.get', {})).toEqual({
      ok: false,
      error: { code: 'report_not_owned', message: 'Not yours.' },
    });
    expect(await dispatch(handlers, 'wallet.lock', {})).toEqual({
      ok: false,
      error: { code: 'over_daily_cap', message: 'Over.' },
    });
  });
});

describe('refusal details over the web host', () => {
  let stack: Stack;
  let proxy: HostileProxy;
  let data: ReturnType<typeof tempDir>;
  let desk: DeskCore;
  let host: WebHost;
  let clock = Date.now();

  beforeAll(async () => {
    stack = await startStack({
      seed: { handles: 1, minReportsPerHandle: 3, maxReportsPerHandle: 3 },
      buyerCount: 1,
    });
    proxy = await startHostileProxy(stack.baseUrl);
    data = tempDir('desk-error-details-');
    ({ desk } = await deskWithWallet(stack, data.dir, 0, { serviceUrl: proxy.url, now: () => clock }));
    const rendererDir = path.join(data.dir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
    host = await startWebHost({ handlers: desk.handlers, rendererDir });
  });
  afterAll(async () => {
    await host?.close();
    await desk?.close();
    await proxy?.close();
    await stack?.stop();
    data?.remove();
  });

  it('arrives in the renderer client with the fresh quote id and the new price', async () => {
    const client = httpClient(host.token, `${host.origin}/`);
    const handle = (await client.call('shelf.list', {})).entries[0]!.username;
    const menu = await client.call('menu.get', { handle });
    const quote = await client.call('quote.get', {
      handle,
      selection: { kind: 'ids', ids: [menu.reports[0]!.id] },
    });
    // The quote goes stale and the service now asks twice the price.
    clock += 61_000;
    proxy.mutate = editChallenge(
      { amount: String(BigInt(quote.amount) * 2n) },
      { unitPriceUsd: Number(unitsText(String(BigInt(quote.unitPriceUnits) * 2n))) },
    );
    const error = await client
      .call('purchase.start', { quoteId: quote.quoteId, confirmedAmount: quote.amount })
      .then(
        () => null,
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(RpcCallError);
    const details = rpcErrorDetails(error as RpcCallError, 'quote_changed');
    expect(details).toEqual({
      quoteId: expect.any(String),
      amount: String(BigInt(quote.amount) * 2n),
    });
    expect(details!.quoteId).not.toBe(quote.quoteId);
    // Nothing was paid for the changed price.
    expect(proxy.paymentsSeen).toHaveLength(0);
  });

  it('arrive from core in its worker thread too: a cap refusal with the cap, amount and spend', async () => {
    const dataDir = path.join(data.dir, 'worker-desk');
    const desk = await startDeskHost({
      core: deskOptions(stack, dataDir),
      rendererDir: path.join(data.dir, 'renderer'),
    });
    try {
      const client = httpClient(desk.host.token, `${desk.host.origin}/`);
      await client.call('settings.update', { perPurchaseCapUnits: '1000' });
      const handle = (await client.call('shelf.list', {})).entries[0]!.username;
      const quote = await client.call('quote.get', { handle, selection: { kind: 'all' } });
      expect(quote.overPurchaseCap).toBe(true);
      const error = await client
        .call('purchase.start', { quoteId: quote.quoteId, confirmedAmount: quote.amount })
        .then(
          () => null,
          (thrown: unknown) => thrown,
        );
      expect(error).toBeInstanceOf(RpcCallError);
      expect(rpcErrorDetails(error as RpcCallError, 'over_purchase_cap')).toEqual({
        cap: '1000',
        amount: quote.amount,
        spent: '0',
      });
    } finally {
      await desk.close();
    }
  });
});
