/** HTTP requests per purchase: the desk against the official @x402/fetch client, for the same purchases. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { startBenchStack } from './stack';
import { createDeskCore } from '../src/core';
import type { Section } from './measure';

function countingFetch(): { fetch: typeof fetch; count: () => number; reset: () => void } {
  let count = 0;
  return {
    fetch: (input, init) => {
      count++;
      return fetch(input, init);
    },
    count: () => count,
    reset: () => {
      count = 0;
    },
  };
}

export const requestsSection: Section = {
  name: 'HTTP requests per purchase',
  async run() {
    const stack = await startBenchStack({
      seed: { handles: 4, minReportsPerHandle: 6, maxReportsPerHandle: 6 },
      buyerCount: 2,
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-requests-'));
    try {
      const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
        entries: { username: string }[];
      };
      const [first, second] = shelf.entries.map((e) => e.username);
      const counter = countingFetch();
      const desk = await createDeskCore({
        dataDir: dir,
        serviceUrl: stack.baseUrl,
        rpcUrl: stack.rpcUrl,
        demo: true,
        demoAsset: stack.asset,
        fetch: counter.fetch,
      });
      await desk.handlers['wallet.import']({
        privateKey: stack.buyerKeys[0]!,
        passphrase: 'bench passphrase',
      });
      const menu = await desk.handlers['menu.get']({ handle: first! });
      counter.reset();
      const byIds = await desk.handlers['quote.get']({
        handle: first!,
        selection: { kind: 'ids', ids: menu.reports.slice(0, 2).map((r) => r.id) },
      });
      await desk.handlers['purchase.start']({ quoteId: byIds.quoteId, confirmedAmount: byIds.amount });
      const oursIds = counter.count();
      counter.reset();
      const all = await desk.handlers['quote.get']({ handle: second!, selection: { kind: 'all' } });
      await desk.handlers['purchase.start']({ quoteId: all.quoteId, confirmedAmount: all.amount });
      const oursAll = counter.count();
      await desk.close();

      const official = countingFetch();
      const client = new x402Client().register(
        'eip155:*',
        new ExactEvmScheme(privateKeyToAccount(stack.buyerKeys[1]!)),
      );
      client.setSpendControls(false);
      const paidFetch = wrapFetchWithPayment(official.fetch, client);
      const answer = await paidFetch(`${stack.baseUrl}/api/intel/reports?username=${first}&select=all`, {
        headers: { Accept: 'application/json' },
      });
      if (answer.status !== 200) throw new Error(`@x402/fetch purchase failed with ${answer.status}`);
      const theirs = official.count();
      return {
        desk_requests_ids_purchase: oursIds,
        desk_requests_all_purchase: oursAll,
        x402_fetch_requests_purchase: theirs,
        desk_vs_x402_fetch_ratio_ids: oursIds / theirs,
        note: 'desk counts include quote.get (the live price shown before confirming); "all" also reads the menu to check the report count',
      };
    } finally {
      await stack.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
