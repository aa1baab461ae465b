/**
 * What core tells the window without being asked: each step of a purchase as it happens, and that something
 * the window may be showing has changed (the library, the purchase history, settings, the wallet). Events
 * carry no secrets and no data to show: the window asks again through the RPC contract for what it reads.
 * They cross the worker thread, Electron IPC and the web host's event stream, and are checked with zod
 * where they arrive in the window.
 */
import { z } from 'zod';
import type { RpcTopic } from './rpc';

/** A purchase's steps in the order they happen; `failed` and `in_doubt` end it early. */
export const purchaseStepSchema = z.enum([
  'quoted',
  'signing',
  'signed',
  'ledger_written',
  'sent',
  'response_received',
  'stored',
  'completed',
  'failed',
  'in_doubt',
]);
export type PurchaseStep = z.infer<typeof purchaseStepSchema>;

export const deskEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('purchase.step'),
    purchaseId: z.string().min(1),
    /** The quote the person confirmed (purchase.start's quoteId), so the window knows its purchase's steps. */
    quoteId: z.string().min(1).nullable(),
    step: purchaseStepSchema,
  }),
  /** Reports were stored (a purchase, a library-secret read, a redelivery found by reconciliation). */
  z.object({ type: z.literal('library.changed') }),
  /** A purchase was recorded or moved on, including an in-doubt one that reconciliation settled. */
  z.object({ type: z.literal('purchases.changed') }),
  /** Settings, a payee pin, or the library secret's state changed. */
  z.object({ type: z.literal('settings.changed') }),
  /** A wallet was imported, unlocked, locked or connected. */
  z.object({ type: z.literal('wallet.changed') }),
  /** The background check found the library file damaged (app.info says how). */
  z.object({ type: z.literal('library.damaged') }),
  /** The service was found unreachable, or answering again: copies shown may be replaced by live ones. */
  z.object({ type: z.literal('service.changed') }),
]);
export type DeskEvent = z.infer<typeof deskEventSchema>;
export type DeskEventType = DeskEvent['type'];

/** What each event makes stale, in the contract's topics (see the reads and changes of each method in rpc/). */
export const eventChanges: Record<DeskEventType, readonly RpcTopic[]> = {
  'purchase.step': [],
  'library.changed': ['library', 'menu', 'quote'],
  'purchases.changed': ['purchases', 'wallet', 'quote'],
  'settings.changed': ['settings', 'app', 'shelf', 'menu', 'quote', 'wallet'],
  'wallet.changed': ['wallet'],
  'library.damaged': ['app'],
  // Not 'quote': a price on screen is not replaced under the person's cursor; a purchase on a quote taken
  // before an outage asks the service again anyway (purchaser.ts).
  'service.changed': ['app', 'shelf', 'menu'],
};

/** The web host's event stream (server-sent events, read with the RPC token header). */
export const EVENTS_PATH = '/events';

/** Where a host hears core's events: core itself, or core's worker thread. */
export interface DeskEventSource {
  /** Listens until the returned function is called. */
  on(listener: (event: DeskEvent) => void): () => void;
}
