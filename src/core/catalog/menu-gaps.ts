/**
 * The reports of a handle that its last menu seen lists and the library does not hold: the gaps in its
 * timeline. Read from the saved menu, never from the network, so a report opens as fast offline as online.
 */
import type { NotOwnedReport } from '../../shared/rpc';
import { reportMenuSchema } from '../../shared/wire';
import type { CatalogCache } from './catalog-cache';
import type { SnapshotStore } from '../library/snapshots';

/** What the gaps are read from: the saved menus and the library's owned ids. */
export interface MenuGapsDeps {
  readonly catalog: Pick<CatalogCache, 'loadMenu'>;
  readonly snapshots: Pick<SnapshotStore, 'ownedIds'>;
}

export interface MenuGaps {
  /** How many reports the last menu seen lists; null when no menu of the handle was ever seen. */
  menuCount: number | null;
  /** Those of them not owned, oldest first. */
  notOwned: NotOwnedReport[];
}

function savedMenu(ctx: MenuGapsDeps, serviceUrl: string, handle: string) {
  // Menus are kept under the service URL as set, snapshots under the client's (no trailing slash).
  const saved = ctx.catalog.loadMenu(serviceUrl, handle) ?? ctx.catalog.loadMenu(`${serviceUrl}/`, handle);
  if (!saved) return null;
  let json: unknown;
  try {
    json = JSON.parse(saved.json);
  } catch {
    return null;
  }
  const parsed = reportMenuSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export function menuGaps(ctx: MenuGapsDeps, serviceUrl: string, handle: string): MenuGaps {
  const menu = savedMenu(ctx, serviceUrl, handle);
  if (!menu) return { menuCount: null, notOwned: [] };
  const owned = ctx.snapshots.ownedIds(serviceUrl, handle);
  const notOwned = menu.reports
    .filter((item) => !owned.has(item.id))
    .map((item) => ({ id: item.id, createdAt: item.createdAt, model: item.model, postCount: item.postCount }))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return { menuCount: menu.reports.length, notOwned };
}
