/** The service's free catalog: the shelf of handles and each handle's report menu. */
import { z } from 'zod';
import { method } from './method';
import { SHELF_SORTS } from '../shelf-filter';
import type { ReportMenuItem, ShelfEntry } from '../wire';
import { handleInput } from './common';

export interface Freshness {
  stale: boolean;
  fetchedAt: string | null;
  /** Why the copy is stale (network error message), when it is. */
  staleReason?: string;
}

export interface ShelfView extends Freshness {
  configured: boolean;
  entries: ShelfEntry[];
  /** Entries the service sent that had no valid handle: left out, and said so. */
  skippedEntries?: number;
}

/** The shelf core holds, without its entries: the Shelf screen asks for those a page at a time. */
export interface ShelfSummary extends Freshness {
  configured: boolean;
  /** Handles on the shelf. */
  total: number;
  skippedEntries?: number;
  /** Changes whenever core holds another shelf: pages asked with an older version are asked again. */
  version: number;
  /** The first page, unfiltered and newest first, when asked for: the first paint needs one answer. */
  first?: ShelfPage;
}

export interface ShelfPage {
  version: number;
  /** Handles that match the filter, in all. */
  matched: number;
  total: number;
  offset: number;
  entries: ShelfEntry[];
}

/**
 * What the Shelf filter matches, per handle in the shelf's own order (shelfHaystack): the window counts the
 * matches of a keystroke itself, in the frame it was typed in, while core sends the rows.
 */
export interface ShelfHaystacks {
  version: number;
  haystacks: string[];
}

export interface MenuItemView extends ReportMenuItem {
  owned: boolean;
}

export interface MenuView extends Freshness {
  username: string;
  /** From the shelf, when the shelf names the handle. */
  displayName: string | null;
  reportCount: number;
  reports: MenuItemView[];
}

export const catalogMethods = {
  'shelf.list': method<ShelfView>()({
    input: z.object({ refresh: z.boolean().optional() }),
    reads: ['shelf'],
    changes: [],
  }),
  /** Asks the service (with its ETag) and keeps what it answers for shelf.page. */
  'shelf.summary': method<ShelfSummary>()({
    input: z.object({
      refresh: z.boolean().optional(),
      firstPage: z.number().int().min(1).max(500).optional(),
    }),
    reads: ['shelf'],
    changes: [],
  }),
  /** Filtered and sorted in core from the shelf of the last shelf.summary; no request to the service. */
  'shelf.page': method<ShelfPage>()({
    input: z.object({
      version: z.number().int().nonnegative().optional(),
      text: z.string().max(200).optional(),
      sort: z.enum(SHELF_SORTS).optional(),
      offset: z.number().int().min(0),
      limit: z.number().int().min(1).max(500),
    }),
    reads: ['shelf'],
    changes: [],
  }),
  /** The shelf of the last shelf.summary, as the filter reads it; `version` only keys the window's copy. */
  'shelf.haystacks': method<ShelfHaystacks>()({
    input: z.object({ version: z.number().int().nonnegative().optional() }),
    reads: ['shelf'],
    changes: [],
  }),
  'menu.get': method<MenuView>()({
    input: z.object({ handle: handleInput, refresh: z.boolean().optional() }),
    reads: ['menu'],
    changes: [],
  }),
};
