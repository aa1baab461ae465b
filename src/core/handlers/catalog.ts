/** Shelf and menus: live when the service answers, the last-known copy (marked stale) when it does not. */
import type { MenuView, ShelfView } from '../../shared/rpc';
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

export async function shelfList(ctx: DeskContext): Promise<ShelfView> {
  const url = ctx.serviceUrl();
  try {
    const shelf = await ctx.client().list();
    const fetchedAt = new Date(ctx.now()).toISOString();
    ctx.catalog.saveShelf(url, shelf, fetchedAt);
    const { configured, entries, skippedEntries } = shelf;
    ctx.snapshots.nameHandles(ctx.client().baseUrl, displayNames(entries));
    return { configured, entries, skippedEntries, stale: false, fetchedAt };
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
