/**
 * Filtering and sorting the shelf: pure, shared by core (which answers the Shelf screen a page at a time) and
 * the benchmark (which predicts the count the page shows), so both read the same rule.
 */
import type { ShelfEntry } from './wire';
import { handleKey } from './handle-key';

export const SHELF_SORTS = ['updated', 'name', 'followers', 'reports'] as const;
export type ShelfSort = (typeof SHELF_SORTS)[number];

export interface IndexedEntry {
  entry: ShelfEntry;
  /** Lower-cased handle, display name and affiliation label, computed once per shelf. */
  haystack: string;
}

export function shelfHaystack(entry: ShelfEntry): string {
  return `${entry.username}\n${entry.displayName ?? ''}\n${entry.affiliationLabel ?? ''}`.toLowerCase();
}

export function indexShelf(entries: ShelfEntry[]): IndexedEntry[] {
  return entries.map((entry) => ({ entry, haystack: shelfHaystack(entry) }));
}

/** What a typed filter looks for: its handle key (trimmed, without a leading @, lower-cased); '' keeps every handle. */
export function shelfNeedle(text: string): string {
  return handleKey(text);
}

// One collator: the same order as localeCompare without its per-call setup, which at 100k handles costs more
// than the sort itself.
const collator = new Intl.Collator();

export const shelfComparators: Record<ShelfSort, (a: ShelfEntry, b: ShelfEntry) => number> = {
  updated: (a, b) => collator.compare(b.gatheredAt ?? '', a.gatheredAt ?? ''),
  name: (a, b) => collator.compare(a.displayName ?? a.username, b.displayName ?? b.username),
  followers: (a, b) => (b.followers ?? 0) - (a.followers ?? 0),
  reports: (a, b) => (b.reportCount ?? 0) - (a.reportCount ?? 0),
};

export function filterShelf(index: IndexedEntry[], text: string, sort: ShelfSort): ShelfEntry[] {
  const needle = shelfNeedle(text);
  const matched = needle ? index.filter((item) => item.haystack.includes(needle)) : index;
  return matched.map((item) => item.entry).sort(shelfComparators[sort]);
}
