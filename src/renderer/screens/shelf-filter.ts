/** Filtering and sorting the shelf: pure, so it is cheap to measure with 100k handles. */
import type { ShelfEntry } from '../../shared/wire';

export type ShelfSort = 'updated' | 'name' | 'followers' | 'reports';

export interface IndexedEntry {
  entry: ShelfEntry;
  /** Lower-cased handle, display name and affiliation label, computed once per shelf. */
  haystack: string;
}

export function indexShelf(entries: ShelfEntry[]): IndexedEntry[] {
  return entries.map((entry) => ({
    entry,
    haystack: `${entry.username}\n${entry.displayName ?? ''}\n${entry.affiliationLabel ?? ''}`.toLowerCase(),
  }));
}

const comparators: Record<ShelfSort, (a: ShelfEntry, b: ShelfEntry) => number> = {
  updated: (a, b) => (b.gatheredAt ?? '').localeCompare(a.gatheredAt ?? ''),
  name: (a, b) => (a.displayName ?? a.username).localeCompare(b.displayName ?? b.username),
  followers: (a, b) => (b.followers ?? 0) - (a.followers ?? 0),
  reports: (a, b) => (b.reportCount ?? 0) - (a.reportCount ?? 0),
};

export function filterShelf(index: IndexedEntry[], text: string, sort: ShelfSort): ShelfEntry[] {
  const needle = text.trim().replace(/^@/, '').toLowerCase();
  const matched = needle ? index.filter((item) => item.haystack.includes(needle)) : index;
  return matched.map((item) => item.entry).sort(comparators[sort]);
}
