/** Shelf and menus: live when the service answers, the last-known copy (marked stale) when it does not. */
import type { MenuView, RpcHandlers, ShelfView } from '../../shared/rpc';
import { reportMenuSchema, shelfListSchema } from '../../shared/wire';
import type { DeskContext } from '../context';
import { DeskError } from '../errors';
import { normalizeHandle } from '../client/service-client';

/** Failures that make the last-known copy worth showing: the service is away or broken, not refusing. */
const UNUSABLE_ANSWERS = new Set(['service_unexpected_status', 'service_malformed', 'service_oversize']);

function offlineReason(error: unknown): string | null {
  if (!(error instanceof DeskError)) return null;
  const status = error.details['status'];
  const serverFault = typeof status === 'number' && (status >= 500 || status === 429);
  return error.kind === 'network' || UNUSABLE_ANSWERS.has(error.code) || serverFault ? error.message : null;
}

function cachedJson(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

/** Display names by handle key, for the Library's names of owned handles. */
function displayNames(entries: ShelfView['entries']): Map<string, string> {
  const names = new Map<string, string>();
  for (const entry of entries)
    if (entry.displayName) names.set(entry.username.toLowerCase(), entry.displayName);
  return names;
}

/**
 * The last shelf fetched and checked per desk: while the service answers that it has not changed (ETag, 304),
 * this copy is served again without fetching, parsing, checking or saving 100k entries once more.
 */
const checkedShelves = new WeakMap<DeskContext, { url: string; etag: string; view: ShelfView }>();

export async function shelfList(ctx: DeskContext, refresh = false): Promise<ShelfView> {
  const url = ctx.serviceUrl();
  try {
    const held = checkedShelves.get(ctx);
    const known = held && held.url === url && !refresh ? held : null;
    const answer = await ctx.client().listIfChanged(known?.etag ?? null);
    const fetchedAt = new Date(ctx.now()).toISOString();
    if (answer === null && known) {
      ctx.catalog.touchShelf(url, fetchedAt);
      return { ...known.view, fetchedAt };
    }
    if (answer === null)
      throw new DeskError('service_malformed', 'The service answered 304 to a plain request.', 'service');
    const { shelf, etag } = answer;
    const { configured, entries, skippedEntries } = shelf;
    const view: ShelfView = { configured, entries, skippedEntries, stale: false, fetchedAt };
    if (etag) checkedShelves.set(ctx, { url, etag, view });
    else checkedShelves.delete(ctx);
    // Saved once the answer is on its way: 22 MB of JSON need not delay the first paint.
    const baseUrl = ctx.client().baseUrl;
    ctx.afterAnswer(() => {
      ctx.catalog.saveShelf(url, shelf, fetchedAt);
      ctx.snapshots.nameHandles(baseUrl, displayNames(entries));
    });
    return view;
  } catch (error) {
    const reason = offlineReason(error);
    if (reason === null) throw error;
    const cached = ctx.catalog.loadShelf(url);
    const parsed = cached ? shelfListSchema.safeParse(cachedJson(cached.json)) : null;
    if (!cached || !parsed?.success) throw error;
    return {
      configured: parsed.data.configured,
      entries: parsed.data.entries,
      stale: true,
      fetchedAt: cached.fetchedAt,
      staleReason: reason,
    };
  }
}

export async function menuGet(ctx: DeskContext, rawHandle: string): Promise<MenuView> {
  const handle = normalizeHandle(rawHandle);
  const url = ctx.serviceUrl();
  const owned = ctx.snapshots.ownedIds(ctx.client().baseUrl, handle);
  const view = (menu: { username: string; reportCount: number; reports: MenuView['reports'] }) =>
    menu.reports.map((item) => ({ ...item, owned: owned.has(item.id) }));
  try {
    const menu = await ctx.client().menu(handle);
    const fetchedAt = new Date(ctx.now()).toISOString();
    ctx.catalog.saveMenu(url, handle, menu, fetchedAt);
    return {
      username: menu.username,
      reportCount: menu.reportCount,
      reports: view({ ...menu, reports: menu.reports.map((r) => ({ ...r, owned: false })) }),
      stale: false,
      fetchedAt,
    };
  } catch (error) {
    const reason = offlineReason(error);
    if (reason === null) throw error;
    const cached = ctx.catalog.loadMenu(url, handle);
    const parsed = cached ? reportMenuSchema.safeParse(cachedJson(cached.json)) : null;
    if (!cached || !parsed?.success) throw error;
    return {
      username: parsed.data.username,
      reportCount: parsed.data.reportCount,
      reports: parsed.data.reports.map((item) => ({ ...item, owned: owned.has(item.id) })),
      stale: true,
      fetchedAt: cached.fetchedAt,
      staleReason: reason,
    };
  }
}

export const catalogHandlers = (ctx: DeskContext): Pick<RpcHandlers, 'shelf.list' | 'menu.get'> => ({
  'shelf.list': ({ refresh }) => shelfList(ctx, refresh ?? false),
  'menu.get': ({ handle }) => menuGet(ctx, handle),
});
