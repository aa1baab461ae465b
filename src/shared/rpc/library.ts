/** The local library: pages, handles, search and saved searches. */
import { z } from 'zod';
import { method } from './method';
import type { DateRange } from '../wire';
import { handleInput } from './common';

const savedSearchName = z.string().trim().min(1).max(80);

export interface LibraryItem {
  id: string;
  /** The service the report was bought from: report ids are unique only within one service. */
  serviceUrl: string;
  /** The handle as a key: lower case. */
  handle: string;
  /** The handle as it was bought, in its own case. */
  username: string;
  /** The handle's display name from the shelf, when the shelf has named it. */
  displayName: string | null;
  createdAt: string;
  model: string;
  postCount: number | null;
  dateRange: DateRange | null;
  purchasedAt: string;
  /** This report's share of what its purchase cost, in token base units; "0" when read with the library secret. */
  spentUnits: string;
  /** The person's own tags (lower case, A to Z) and note on the report; kept when it is bought again. */
  tags: string[];
  note: string | null;
  /** Pulled from the team this desk is (or was) in: who bought it; null for the desk's own reports. */
  boughtBy?: { analyst: string; deskId: string } | null;
}

/** What a folder export wrote: where, how many reports, for how many handles. */
export interface FolderExportView {
  dir: string;
  reports: number;
  handles: number;
}

export interface SavedSearch {
  id: number;
  name: string;
  query: string;
  createdAt: string;
  updatedAt: string;
}

/** Columns the library sorts by; each has an index in desk.db, so any page is as fast as the first. */
export const librarySortSchema = z.enum(['date', 'handle', 'purchased', 'spent']);

export type LibrarySort = z.infer<typeof librarySortSchema>;

export interface LibraryPage {
  items: LibraryItem[];
  /** Reports matching the filter, and what they cost together, in token base units. */
  total: number;
  totalSpentUnits: string;
  /** Opaque; pass it back to get the page after this one. null on the last page. */
  nextCursor: string | null;
  /**
   * Set while the indexing pass is behind (a large purchase, an upgrade that fills new tables): pages in date
   * order hold only the reports indexed so far; the rest appear as the pass goes on in the background.
   */
  indexing?: LibraryIndexing;
}

/** How far the background indexing pass has got: `indexed` of `total` reports. */
export interface LibraryIndexing {
  indexed: number;
  total: number;
}

export interface SearchHit extends LibraryItem {
  /** Plain text with match markers \u0001 ... \u0002 around matched terms; the renderer styles them. */
  snippet: string;
}

export interface LibraryHandle {
  handle: string;
  username: string;
  displayName: string | null;
  reports: number;
}

/** How far a search can be paged: past the count's limit the hits go on, most recently bought first. */
export const MAX_SEARCH_OFFSET = 10_000;

export interface SearchView {
  hits: SearchHit[];
  /** Reports that match, counted up to a limit (1,000); `countCapped` says there are more. */
  count: number;
  countCapped: boolean;
  /**
   * best: ranked by bm25 (words, and few enough matches to rank); bought: too many matches to rank, the most
   * recently bought first; newest: no words to rank by, the newest reports first.
   */
  order: 'best' | 'bought' | 'newest';
  /** The words and phrases searched for, as understood (for "no match for …"). */
  terms: string[];
}

export const libraryMethods = {
  'library.list': method<LibraryPage>()({
    input: z
      .object({
        handle: handleInput.optional(),
        sort: librarySortSchema.optional(),
        /** Default: newest, most expensive, latest bought first; handles A to Z. */
        order: z.enum(['asc', 'desc']).optional(),
        /** Without a limit, the whole library in one answer (the CLI's `library`). */
        limit: z.number().int().min(1).max(1000).optional(),
        cursor: z.string().max(1000).optional(),
        /** A page by its place in the order, for a view that jumps; not with a cursor. */
        offset: z.number().int().min(0).max(100_000_000).optional(),
      })
      .refine((input) => input.cursor === undefined || input.offset === undefined, {
        message: 'Ask for a page by its cursor or by its offset, not both.',
      }),
    reads: ['library'],
    changes: [],
  }),
  'library.handles': method<{ handles: LibraryHandle[] }>()({
    input: z.object({}),
    reads: ['library'],
    changes: [],
  }),
  /**
   * A handle's reports, or the whole library's, written as a folder of Markdown files with YAML front matter
   * and an index per handle (decision 0049) into `dir`. Host only: a page can never name a path (Electron's
   * main after its folder dialog, the CLI's --out).
   */
  'library.exportFolder': method<FolderExportView>()({
    input: z.object({ dir: z.string().trim().min(1).max(4096), handle: handleInput.optional() }),
    reads: [],
    changes: [],
    hostOnly: true,
  }),
  /**
   * The query language of docs/search.md: words, "phrases", prefix*, qualifiers, comparisons, AND/OR/NOT and
   * parentheses; words rank the matches (bm25), else the newest first. `prefixLast` (the app while typing)
   * lets a bare last word match as a prefix. A syntax error is 'search_syntax' with its column.
   * Snippets are made for the returned page only.
   */
  'library.search': method<SearchView>()({
    input: z.object({
      text: z.string().min(1).max(500),
      handle: handleInput.optional(),
      limit: z.number().int().min(1).max(200).optional(),
      offset: z.number().int().min(0).max(MAX_SEARCH_OFFSET).optional(),
      prefixLast: z.boolean().optional(),
    }),
    reads: ['library'],
    changes: [],
  }),
  'searches.list': method<{ searches: SavedSearch[] }>()({
    input: z.object({}),
    reads: ['searches'],
    changes: [],
  }),
  /** Saving under a name already used replaces that search's query. */
  'searches.save': method<SavedSearch>()({
    input: z.object({ name: savedSearchName, query: z.string().min(1).max(500) }),
    reads: [],
    changes: ['searches'],
  }),
  'searches.rename': method<SavedSearch>()({
    input: z.object({ id: z.number().int().positive(), name: savedSearchName }),
    reads: [],
    changes: ['searches'],
  }),
  'searches.delete': method<{ deleted: boolean }>()({
    input: z.object({ id: z.number().int().positive() }),
    reads: [],
    changes: ['searches'],
  }),
};
