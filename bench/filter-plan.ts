/**
 * What to type into the shelf filter, and what the shelf count must read after each keystroke. Counts use the
 * renderer's own index (src/shared/shelf-filter.ts), so the expectation is exactly what the page shows.
 */
import { indexShelf } from '../src/shared/shelf-filter';
import type { ShelfEntry } from '../src/shared/wire';

export interface PlannedKey {
  key: string;
  /** The shelf count text after this key; null when the count does not change (typed, not timed). */
  expected: string | null;
}

export interface FilterQuery {
  text: string;
  keys: PlannedKey[];
}

export function countText(rows: number, total: number): string {
  return `${rows.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} handles`;
}

/** Name prefixes and index digits of handles spread over the shelf: broad first keystrokes, narrow last ones. */
function queryTexts(entries: ShelfEntry[], count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const username = entries[(i * 7919 + 13) % entries.length]!.username.toLowerCase();
    if (i % 3 === 2) return /\d+$/.exec(username)?.[0] ?? username.slice(-4);
    return username.slice(0, 8);
  });
}

export function filterPlan(entries: ShelfEntry[], queryCount: number): FilterQuery[] {
  const index = indexShelf(entries);
  return queryTexts(entries, queryCount).map((text) => {
    const keys: PlannedKey[] = [];
    let previous = entries.length;
    for (let length = 1; length <= text.length; length++) {
      const needle = text.slice(0, length);
      const rows = index.filter((item) => item.haystack.includes(needle)).length;
      if (rows === 0) break;
      keys.push({
        key: text[length - 1]!,
        expected: rows === previous ? null : countText(rows, entries.length),
      });
      previous = rows;
    }
    return { text: keys.map((k) => k.key).join(''), keys };
  });
}

export interface Burst {
  text: string;
  /** The shelf count text once every key of the burst is in. */
  expected: string;
}

export const BURST_KEYS = 10;

/** Handles' first BURST_KEYS characters, typed back to back as a fast typist does. */
export function burstPlan(entries: ShelfEntry[], count: number): Burst[] {
  const index = indexShelf(entries);
  const long = entries.filter((entry) => entry.username.length >= BURST_KEYS);
  if (long.length === 0) throw new Error(`no handle on the shelf has ${BURST_KEYS} characters`);
  return Array.from({ length: count }, (_, i) => {
    const text = long[(i * 7919 + 101) % long.length]!.username.toLowerCase().slice(0, BURST_KEYS);
    const rows = index.filter((item) => item.haystack.includes(text)).length;
    return { text, expected: countText(rows, entries.length) };
  });
}
