/** Shelf and menus: live when the service answers, the last-known copy (marked stale) when it does not. */
import type {
  MenuView,
  RpcHandlers,
  RpcInput,
  ShelfHaystacks,
  ShelfPage,
  ShelfSummary,
  ShelfView,
} from '../../shared/rpc';
import { reportMenuSchema, shelfListSchema } from '../../shared/wire';
import type { DeskContext } from '../context';
import { DeskError } from '../errors';
import { normalizeHandle } from '../client/service-client';
import { ShelfIndex } from '../cache/shelf-index';

/** Failures that make the last-known copy worth showing: the service is away or broken, not refusing. */
const UNUSABLE_ANSWERS = new Set(['service_unexpected_status', 'service_malformed', 'service_oversize']);

export function offlineReason(error: unknown): string | null {
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

/** The shelf the Shelf screen pages through, per desk: replaced when shelf.summary finds another one. */
const servedShelves = new WeakMap<
  DeskContext,
  { url: string; view: ShelfView; index: ShelfIndex; version: number }
>();
let nextVersion = 1;

export async function shelfSummary(
  ctx: DeskContext,
  refresh = false,
  firstPage?: number,
): Promise<ShelfSummary> {
  const view = await shelfList(ctx, refresh);
  const url = ctx.serviceUrl();
  const held = servedShelves.get(ctx);
  // A 304 keeps the same entries: the index (and its sort orders) outlive the check.
  const same = held && held.url === url && held.index.entries === view.entries;
  const served = same
    ? { ...held, view }
    : { url, view, index: new ShelfIndex(view.entries), version: nextVersion++ };
  servedShelves.set(ctx, served);
  const { entries, ...freshness } = view;
  const summary: ShelfSummary = { ...freshness, total: entries.length, version: served.version };
  // The first page comes with the summary: a shelf just fetched is saved right after this answer, and a
  // second call would wait for that save.
  if (firstPage !== undefined) summary.first = pageOf(served, { offset: 0, limit: firstPage });
  return summary;
}

function pageOf(served: { index: ShelfIndex; version: number }, input: RpcInput<'shelf.page'>): ShelfPage {
  const { offset, limit } = input;
  const { matched, entries } = served.index.page(input.text ?? '', input.sort ?? 'updated', offset, limit);
  return { version: served.version, matched, total: served.index.entries.length, offset, entries };
}

async function servedShelf(ctx: DeskContext) {
  let served = servedShelves.get(ctx);
  if (!served || served.url !== ctx.serviceUrl()) {
    await shelfSummary(ctx);
    served = servedShelves.get(ctx);
  }
  if (!served) throw new DeskError('shelf_not_held', 'The shelf was fetched but core kept no copy of it.');
  return served;
}

export async function shelfPage(ctx: DeskContext, input: RpcInput<'shelf.page'>): Promise<ShelfPage> {
  return pageOf(await servedShelf(ctx), input);
}

export async function shelfHaystacks(ctx: DeskContext): Promise<ShelfHaystacks> {
  const served = await servedShelf(ctx);
  return { version: served.version, haystacks: [...served.index.haystacks] };
}

/**
 * The handle's display name for its menu: from the shelf core holds in memory, else the one kept with owned
 * reports, else the saved shelf. The screen used to load the whole shelf (22 MB at 100k handles) for it.
 */
function displayNameFor(ctx: DeskContext, url: string, handle: string): string | null {
  const served = servedShelves.get(ctx);
  if (served && served.url === url) {
    const entry = served.index.entries.find((e) => e.username.toLowerCase() === handle.toLowerCase());
    if (entry) return entry.displayName || null;
  }
  return ctx.snapshots.handleNames(url, handle).displayName ?? ctx.catalog.displayNameOf(url, handle);
}

export async function menuGet(ctx: DeskContext, rawHandle: string): Promise<MenuView> {
  const handle = normalizeHandle(rawHandle);
  const url = ctx.serviceUrl();
  const displayName = displayNameFor(ctx, url, handle);
  const owned = ctx.snapshots.ownedIds(ctx.client().baseUrl, handle);
  const view = (menu: { username: string; reportCount: number; reports: MenuView['reports'] }) =>
    menu.reports.map((item) => ({ ...item, owned: owned.has(item.id) }));
  try {
    const menu = await ctx.client().menu(handle);
    const fetchedAt = new Date(ctx.now()).toISOString();
    ctx.catalog.saveMenu(url, handle, menu, fetchedAt);
    return {
      username: menu.username,
      displayName,
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
      displayName,
      reportCount: parsed.data.reportCount,
      reports: parsed.data.reports.map((item) => ({ ...item, owned: owned.has(item.id) })),
      stale: true,
      fetchedAt: cached.fetchedAt,
      staleReason: reason,
    };
  }
}

export const catalogHandlers = (
  ctx: DeskContext,
): Pick<RpcHandlers, 'shelf.list' | 'shelf.summary' | 'shelf.page' | 'shelf.haystacks' | 'menu.get'> => ({
  'shelf.list': ({ refresh }) => shelfList(ctx, refresh ?? false),
  'shelf.summary': ({ refresh, firstPage }) => shelfSummary(ctx, refresh ?? false, firstPage),
  'shelf.page': (input) => shelfPage(ctx, input),
  'shelf.haystacks': () => shelfHaystacks(ctx),
  'menu.get': ({ handle }) => menuGet(ctx, handle),
});
