/**
 * Notifications and the badge: the real electron/main.ts with real core, the reference service and a local
 * chain, buying a report while the window is not focused; and electron/notifications.ts fed core's events for
 * an in-doubt purchase that reconciliation settles (a lost answer is not something a test can cause here).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import type { DispatchResult } from '../../src/host/dispatch';
import type { DeskEvent } from '../../src/shared/events';
import type { PurchaseView, QuoteView } from '../../src/shared/rpc';
import { openRotatingLog } from '../../electron/logs';
import { firstHandle } from '../core/helpers';
import { cleanup, launchOpened, makeFolders, type FakeElectron, type Folders } from './launch';
import { callCore } from './window-call';

vi.mock('electron', () => import('./fake-electron'));

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seed: { handles: 1, minReportsPerHandle: 2, maxReportsPerHandle: 2 } });
});
afterAll(async () => {
  await stack?.stop();
});

let folders: Folders;
beforeEach(() => {
  folders = makeFolders();
});
afterEach(() => cleanup(folders));

describe('a purchase that finishes while the window is not focused', () => {
  it('is a system notification and a badge, cleared when the window is focused', async () => {
    const { handle, ids } = await firstHandle(stack);
    const { electron, window } = await launchOpened(folders, {
      env: {
        INTEL_DESK_DEMO: '1',
        INTEL_DESK_DEMO_KEY: stack.buyerKeys[0],
        INTEL_DESK_DEMO_ASSET: stack.asset,
        INTEL_DESK_SERVICE_URL: stack.baseUrl,
        INTEL_DESK_RPC_URL: stack.rpcUrl,
      },
    });
    const buy = async (id: string) => {
      const quote = (await callCore(electron, window, 'quote.get', {
        handle,
        selection: { kind: 'ids', ids: [id] },
      })) as QuoteView;
      return callCore(electron, window, 'purchase.start', {
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
    };
    // Focused: nothing to tell.
    window.focus();
    await buy(ids[0]!);
    expect(electron.fake.notifications).toHaveLength(0);
    window.blur();
    const bought = (await buy(ids[1]!)) as { purchase: PurchaseView };
    await vi.waitFor(() => expect(electron.fake.notifications).toHaveLength(1));
    const [notice] = electron.fake.notifications;
    expect(notice?.options).toEqual({
      title: 'Purchase complete',
      body: `1 report of @${handle} is in your library.`,
    });
    expect(notice?.shown).toBe(true);
    expect(electron.app.badgeCounts.at(-1)).toBe(1);
    notice?.emit('click');
    expect(window.loadedUrl).toBe(`app://desk/index.html?locale=en-US#/purchases/${bought.purchase.id}`);
    expect(electron.app.badgeCounts.at(-1)).toBe(0);
  });
});

describe('a purchase in doubt that reconciliation settles', () => {
  it('is told about once, focused or not, with what became of it', async () => {
    const electron = (await import('electron')) as unknown as FakeElectron;
    electron.reset();
    const { notifyPurchases } = await import('../../electron/notifications');
    const listeners: ((event: DeskEvent) => void)[] = [];
    const emit = (event: DeskEvent) => listeners.forEach((listener) => listener(event));
    let listed: Partial<PurchaseView>[] = [
      { id: 'p-old', state: 'in_doubt', handle: 'ada', reportCount: 2 },
      { id: 'p-done', state: 'completed', handle: 'ada', reportCount: 1 },
    ];
    const window = new electron.BrowserWindow({});
    window.focus();
    notifyPurchases({
      events: { on: (listener) => (listeners.push(listener), () => undefined) },
      call: (method): Promise<DispatchResult> => {
        expect(method).toBe('purchases.list');
        return Promise.resolve({ ok: true, value: { purchases: listed } });
      },
      window: () => window as never,
      open: () => undefined,
      log: openRotatingLog({ dir: folders.root, echo: () => undefined }),
    });
    emit({ type: 'purchase.step', purchaseId: 'p-new', quoteId: 'q', step: 'in_doubt' });
    listed = [...listed, { id: 'p-new', state: 'in_doubt', handle: 'bob', reportCount: 1 }];
    emit({ type: 'purchases.changed' });
    await Promise.resolve();
    expect(electron.fake.notifications).toHaveLength(0);
    listed = [
      { id: 'p-old', state: 'completed', handle: 'ada', reportCount: 2 },
      { id: 'p-done', state: 'completed', handle: 'ada', reportCount: 1 },
      { id: 'p-new', state: 'failed', handle: 'bob', reportCount: 1 },
    ];
    emit({ type: 'purchase.step', purchaseId: 'p-old', quoteId: null, step: 'completed' });
    emit({ type: 'purchases.changed' });
    await vi.waitFor(() => expect(electron.fake.notifications).toHaveLength(2));
    expect(electron.fake.notifications.map((n) => n.options)).toEqual([
      { title: 'A purchase in doubt went through', body: '2 reports of @ada are in your library.' },
      {
        title: 'A purchase in doubt was settled',
        body: 'The purchase from @bob did not go through; nothing was paid.',
      },
    ]);
    emit({ type: 'purchases.changed' });
    await Promise.resolve();
    expect(electron.fake.notifications).toHaveLength(2);
    expect(electron.app.badgeCounts).toEqual([1, 2]);
  });
});
