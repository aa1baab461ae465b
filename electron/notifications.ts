/**
 * System notifications and the taskbar / dock badge for purchases the person is not watching: one that finishes
 * while the window is not focused, and one in doubt that reconciliation settles (whenever that happens, since
 * it may be hours later). The badge counts them until the window is focused again; clicking a notification
 * opens that purchase. Core's events carry no data, so what to say is read back through the RPC contract.
 */
import { app, Notification, type BrowserWindow } from 'electron';
import type { DispatchResult } from '../src/host/dispatch';
import type { DeskEventSource } from '../src/shared/events';
import type { PurchasesView, PurchaseView } from '../src/shared/rpc';
import { routeHash } from '../src/shared/route';
import type { ShellLog } from './logs';

export interface PurchaseNoticeOptions {
  events: DeskEventSource;
  call: (method: string, input: unknown) => Promise<DispatchResult>;
  window: () => BrowserWindow | null;
  /** Brings the window forward at a route (a fragment of src/shared/route.ts). */
  open: (hash: string) => void;
  log: ShellLog;
}

const inLibrary = (n: number, handle: string) =>
  n === 1 ? `1 report of @${handle} is in your library.` : `${n} reports of @${handle} are in your library.`;

function settledText(purchase: PurchaseView): { title: string; body: string } {
  if (purchase.state === 'completed')
    return {
      title: 'A purchase in doubt went through',
      body: inLibrary(purchase.reportCount, purchase.handle),
    };
  return {
    title: 'A purchase in doubt was settled',
    body:
      purchase.state === 'failed'
        ? `The purchase from @${purchase.handle} did not go through; nothing was paid.`
        : `The purchase from @${purchase.handle} is now ${purchase.state}.`,
  };
}

export function notifyPurchases(options: PurchaseNoticeOptions): void {
  const { log } = options;
  const inDoubt = new Set<string>();
  let unseen = 0;

  const purchases = async (): Promise<PurchaseView[]> => {
    const result = await options.call('purchases.list', {});
    if (!result.ok) throw new Error(result.error.message);
    return (result.value as PurchasesView).purchases;
  };

  const notify = (purchaseId: string, text: { title: string; body: string }) => {
    unseen += 1;
    app.setBadgeCount(unseen);
    if (!Notification.isSupported()) return;
    const notice = new Notification({ title: text.title, body: text.body });
    notice.on('click', () => options.open(routeHash({ screen: 'purchases', purchaseId })));
    notice.show();
  };

  const focused = () => {
    const window = options.window();
    return window !== null && !window.isDestroyed() && window.isFocused();
  };

  const finished = async (purchaseId: string) => {
    // One that was in doubt is told about once, as settled.
    if (focused() || inDoubt.has(purchaseId)) return;
    const purchase = (await purchases()).find((p) => p.id === purchaseId);
    if (!purchase) return;
    notify(purchaseId, {
      title: 'Purchase complete',
      body: inLibrary(purchase.reportCount, purchase.handle),
    });
  };

  const settled = async () => {
    if (inDoubt.size === 0) return;
    for (const purchase of await purchases()) {
      if (!inDoubt.has(purchase.id) || purchase.state === 'in_doubt') continue;
      inDoubt.delete(purchase.id);
      notify(purchase.id, settledText(purchase));
    }
  };

  const report = (what: string) => (error: unknown) => log.error(`Notifying ${what} failed`, error);

  // Purchases left in doubt by an earlier run are watched too: reconciliation may settle them now.
  void purchases()
    .then((all) => {
      for (const purchase of all) if (purchase.state === 'in_doubt') inDoubt.add(purchase.id);
    })
    .catch(report('purchases in doubt'));

  // The badge counts what was notified since the window was last focused.
  app.on('browser-window-focus', () => {
    unseen = 0;
    app.setBadgeCount(0);
  });

  options.events.on((event) => {
    if (event.type === 'purchase.step' && event.step === 'in_doubt') inDoubt.add(event.purchaseId);
    else if (event.type === 'purchase.step' && event.step === 'completed')
      void finished(event.purchaseId).catch(report('a finished purchase'));
    else if (event.type === 'purchases.changed') void settled().catch(report('a settled purchase'));
  });
}
