/**
 * Shelf and menus: live when the service answers, the last-known copy (marked stale) when it does not. This
 * service owns what one desk keeps of them in memory (the last shelf checked, the shelf the Shelf screen pages
 * through); handlers/catalog.ts is its face to the contract.
 */
import type {
  MenuView,
  RpcInput,
  ShelfHaystacks,
  ShelfPage,
  ShelfSummary,
  ShelfView,
} from '../../shared/rpc';
import { reportMenuSchema, shelfListSchema } from '../../shared/wire';
import { DeskError } from '../base/errors';
import { normalizeHandle, type ServiceClient } from '../client/service-client';
import type { CatalogCache } from './catalog-cache';
import type { SnapshotStore } from '../library/snapshots';
import { ShelfIndex } from './shelf-index';
import { offlineReason } from './offline';
import { handleKey } from '../../shared/handle-key';

export interface CatalogDeps {
  serviceUrl: () => string;
  client: () => ServiceClient;
  catalog: CatalogCache;
  snapshots: SnapshotStore;
  now: () => number;
  /** A write that need not delay the answer it belongs to (desk/after-answer.ts). */
  afterAnswer: (write: () => void) => void;
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
  for (const entry of entries) if (entry.displayName) names.set(handleKey(entry.username), entry.displayName);
  return names;
}

interface ServedShelf {
  url: string;
  view: ShelfView;
  index: ShelfIndex;
  version: number;
}

function pageOf(served: ServedShelf, input: RpcInput<'shelf.page'>): ShelfPage {
  const { offset, limit } = input;
  const { matched, entries } = served.index.page(input.text ?? '', input.sort ?? 'updated', offset, limit);
  return { version: served.version, matched, total: served.index.entries.length, offset, entries };
}

export class CatalogService {
  /**
   * The last shelf fetched and checked: while the service answers that it has not changed (ETag, 304), this
   * copy is served again without fetching, parsing, checking or saving 100k entries once more.
   */
  private checkedShelf: { url: string; etag: string; view: ShelfView } | null = null;
  /** The shelf the Shelf screen pages through: replaced when summary() finds another one. */
  private servedShelf: ServedShelf | null = null;
  private nextVersion = 1;

  constructor(private readonly deps: CatalogDeps) {}

  async shelf(refresh = false): Promise<ShelfView> {
    const { deps } = this;
    const url = deps.serviceUrl();
    try {
      const held = this.checkedShelf;
      const known = held && held.url === url && !refresh ? held : null;
      const answer = await deps.client().listIfChanged(known?.etag ?? null);
      const fetchedAt = new Date(deps.now()).toISOString();
      if (answer === null && known) {
        deps.catalog.touchShelf(url, fetchedAt);
        return { ...known.view, fetchedAt };
      }
      if (answer === null)
        throw new DeskError('service_malformed', 'The service answered 304 to a plain request.', 'service');
      const { shelf, etag } = answer;
      const { configured, entries, skippedEntries } = shelf;
      const view: ShelfView = { configured, entries, skippedEntries, stale: false, fetchedAt };
      this.checkedShelf = etag ? { url, etag, view } : null;
      // Saved once the answer is on its way: 22 MB of JSON need not delay the first paint.
      const baseUrl = deps.client().baseUrl;
      deps.afterAnswer(() => {
        deps.catalog.saveShelf(url, shelf, fetchedAt);
        deps.snapshots.nameHandles(baseUrl, displayNames(entries));
      });
      return view;
    } catch (error) {
      const reason = offlineReason(error);
      if (reason === null) throw error;
      const cached = deps.catalog.loadShelf(url);
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

  async summary(refresh = false, firstPage?: number): Promise<ShelfSummary> {
    const view = await this.shelf(refresh);
    const url = this.deps.serviceUrl();
    const held = this.servedShelf;
    // A 304 keeps the same entries: the index (and its sort orders) outlive the check.
    const same = held && held.url === url && held.index.entries === view.entries;
    const served = same
      ? { ...held, view }
      : { url, view, index: new ShelfIndex(view.entries), version: this.nextVersion++ };
    this.servedShelf = served;
    const { entries, ...freshness } = view;
    const summary: ShelfSummary = { ...freshness, total: entries.length, version: served.version };
    // The first page comes with the summary: a shelf just fetched is saved right after this answer, and a
    // second call would wait for that save.
    if (firstPage !== undefined) summary.first = pageOf(served, { offset: 0, limit: firstPage });
    return summary;
  }

  async page(input: RpcInput<'shelf.page'>): Promise<ShelfPage> {
    return pageOf(await this.served(), input);
  }

  /** What the filter matches, per handle: the window counts a keystroke's matches itself. */
  async haystacks(): Promise<ShelfHaystacks> {
    const served = await this.served();
    return { version: served.version, haystacks: [...served.index.haystacks] };
  }

  private async served(): Promise<ServedShelf> {
    if (!this.servedShelf || this.servedShelf.url !== this.deps.serviceUrl()) await this.summary();
    const served = this.servedShelf;
    if (!served) throw new DeskError('shelf_not_held', 'The shelf was fetched but core kept no copy of it.');
    return served;
  }

  /**
   * The handle's display name for its menu: from the shelf held in memory, else the one kept with owned
   * reports, else the saved shelf. The screen used to load the whole shelf (22 MB at 100k handles) for it.
   */
  private displayNameFor(url: string, handle: string): string | null {
    const served = this.servedShelf;
    if (served && served.url === url) {
      const entry = served.index.entries.find((e) => handleKey(e.username) === handleKey(handle));
      if (entry) return entry.displayName || null;
    }
    const { snapshots, catalog } = this.deps;
    return snapshots.handleNames(url, handle).displayName ?? catalog.displayNameOf(url, handle);
  }

  async menu(rawHandle: string): Promise<MenuView> {
    const { deps } = this;
    const handle = normalizeHandle(rawHandle);
    const url = deps.serviceUrl();
    const displayName = this.displayNameFor(url, handle);
    const owned = deps.snapshots.ownedIds(deps.client().baseUrl, handle);
    try {
      const menu = await deps.client().menu(handle);
      const fetchedAt = new Date(deps.now()).toISOString();
      deps.catalog.saveMenu(url, handle, menu, fetchedAt);
      return {
        username: menu.username,
        displayName,
        reportCount: menu.reportCount,
        reports: menu.reports.map((item) => ({ ...item, owned: owned.has(item.id) })),
        stale: false,
        fetchedAt,
      };
    } catch (error) {
      const reason = offlineReason(error);
      if (reason === null) throw error;
      const cached = deps.catalog.loadMenu(url, handle);
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
}
