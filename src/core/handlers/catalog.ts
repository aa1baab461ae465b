/** Shelf and menus: live when the service answers, the last-known copy (marked stale) when it does not. */
import type { MenuView, ShelfView } from '../../shared/rpc';
import { reportMenuSchema, shelfListSchema } from '../../shared/wire';
import type { DeskContext } from '../context';
import { DeskError } from '../errors';
import { normalizeHandle } from '../client/service-client';

function offlineReason(error: unknown): string | null {
  if (
    error instanceof DeskError &&
    (error.kind === 'network' ||
      error.code === 'service_unexpected_status' ||
      error.code === 'service_malformed')
  ) {
    return error.message;
  }
  return null;
}

export async function shelfList(ctx: DeskContext): Promise<ShelfView> {
  const url = ctx.serviceUrl();
  try {
    const shelf = await ctx.client().list();
    const fetchedAt = new Date(ctx.now()).toISOString();
    ctx.catalog.saveShelf(url, shelf, fetchedAt);
    ctx.online = true;
    return { configured: shelf.configured, entries: shelf.entries, stale: false, fetchedAt };
  } catch (error) {
    const reason = offlineReason(error);
    if (reason === null) throw error;
    ctx.online = false;
    const cached = ctx.catalog.loadShelf(url);
    const parsed = cached ? shelfListSchema.safeParse(JSON.parse(cached.json)) : null;
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
  const owned = ctx.snapshots.ownedIds(handle);
  const view = (menu: { username: string; reportCount: number; reports: MenuView['reports'] }) =>
    menu.reports.map((item) => ({ ...item, owned: owned.has(item.id) }));
  try {
    const menu = await ctx.client().menu(handle);
    const fetchedAt = new Date(ctx.now()).toISOString();
    ctx.catalog.saveMenu(url, handle, menu, fetchedAt);
    ctx.online = true;
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
    ctx.online = false;
    const cached = ctx.catalog.loadMenu(url, handle);
    const parsed = cached ? reportMenuSchema.safeParse(JSON.parse(cached.json)) : null;
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
