import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { startDemoStack, type DemoStack } from '../../src/service/demo-stack';
import { startDeskHost } from '../../src/host/desk-host';
import { buyAll, firstHandle, tempDir } from '../core/helpers';

const small = { seed: { handles: 2, minReportsPerHandle: 2, maxReportsPerHandle: 2 }, buyerCount: 1 };

/** npm start's demo as scripts/start.ts runs it: the kept stack in the data folder, the desk beside it. */
function startDesk(dataDir: string, stack: DemoStack) {
  return startDeskHost({
    core: {
      dataDir,
      demo: true,
      serviceUrl: stack.baseUrl,
      rpcUrl: stack.rpcUrl,
      demoAsset: stack.asset,
      demoLibrarySecret: stack.librarySecret,
    },
    rendererDir: path.join(dataDir, 'no-renderer'),
    demoKey: stack.buyerKeys[0]!,
  });
}

describe('the demo started again on its data folder', () => {
  it('is the same service on the same chain: what was bought stays owned, verifies, and the secret works', async () => {
    const data = tempDir('desk-demo-restart-');
    const serviceDir = path.join(data.dir, 'demo-service');
    try {
      const first = await startDemoStack(serviceDir, small);
      expect(first.changes).toEqual([]);
      const { handle, ids } = await firstHandle(first);
      const desk = await startDesk(data.dir, first);
      const { outcome } = await buyAll(desk.core, handle);
      if (outcome.status !== 'completed') throw new Error(`the purchase did not complete: ${outcome.status}`);
      const purchaseId = outcome.purchase.id;
      await desk.core.handlers['settings.useDemoLibrarySecret']({});
      await desk.close();
      await first.stop();

      const second = await startDemoStack(serviceDir, small);
      try {
        expect(second.changes).toEqual([]);
        expect(second.baseUrl).toBe(first.baseUrl);
        expect(second.asset).toBe(first.asset);
        expect(second.librarySecret).toBe(first.librarySecret);
        const again = await startDesk(data.dir, second);
        try {
          const menu = await again.core.handlers['menu.get']({ handle });
          expect(menu.reports.map((r) => [r.id, r.owned])).toEqual(ids.map((id) => [id, true]));
          const receipt = await again.core.handlers['receipt.get']({ purchaseId, verify: true });
          expect(receipt.verification?.status).toBe('verified');
          expect(await again.core.handlers['settings.get']({})).toMatchObject({ librarySecretSet: true });
          const other = (await again.core.handlers['shelf.list']({})).entries.find(
            (e) => e.username !== handle,
          );
          const quote = await again.core.handlers['quote.get']({
            handle: other!.username,
            selection: { kind: 'all' },
          });
          expect(quote.paidWith).toBe('library_secret');
          expect((await again.core.handlers['dossier.open']({ handle })).bundle.username).toBe(handle);
        } finally {
          await again.close();
        }
      } finally {
        await second.stop();
      }
    } finally {
      data.remove();
    }
  });

  it('says so when its port is taken or its chain cannot be loaded, and starts anyway', async () => {
    const data = tempDir('desk-demo-restart-');
    const serviceDir = path.join(data.dir, 'demo-service');
    try {
      const first = await startDemoStack(serviceDir, small);
      await first.stop();
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(first.port, '127.0.0.1', resolve));
      const statePath = path.join(serviceDir, 'chain-state.json');
      writeFileSync(statePath, readFileSync(statePath, 'utf8').slice(0, 100));
      try {
        const second = await startDemoStack(serviceDir, small);
        try {
          expect(second.baseUrl).not.toBe(first.baseUrl);
          expect(second.changes.join('\n')).toMatch(/saved state could not be loaded and was moved to/);
          expect(second.changes.join('\n')).toMatch(/receipts of purchases made before cannot be checked/);
          expect(second.changes.join('\n')).toContain(`Port ${first.port} is in use by another program`);
        } finally {
          await second.stop();
        }
      } finally {
        await new Promise((resolve) => holder.close(resolve));
      }
      // The first port is remembered: free again, the demo is back at its address.
      const third = await startDemoStack(serviceDir, small);
      expect(third.baseUrl).toBe(first.baseUrl);
      await third.stop();
      expect(existsSync(statePath)).toBe(true);
    } finally {
      data.remove();
    }
  });
});
