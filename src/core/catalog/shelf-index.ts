/**
 * A shelf held in core, answered a page at a time: the Shelf screen shows some 20 rows of 100k, so only
 * those cross to the renderer. Each sort order is computed once per shelf, and a filter walks that order,
 * so a page costs one pass over the handles at most and never a sort.
 */
import type { ShelfEntry } from '../../shared/wire';
import { shelfComparators, shelfHaystack, shelfNeedle, type ShelfSort } from '../../shared/shelf-filter';

export interface ShelfSlice {
  /** Handles that match the filter. */
  matched: number;
  entries: ShelfEntry[];
}

interface Matches {
  needle: string;
  sort: ShelfSort;
  positions: Uint32Array;
}

export class ShelfIndex {
  /** What the filter matches, per entry (shelfHaystack). */
  readonly haystacks: readonly string[];
  private readonly orders = new Map<ShelfSort, Uint32Array>();
  /** The last filter: the next keystroke usually narrows it, and scrolling asks for it again. */
  private last: Matches | null = null;

  constructor(readonly entries: ShelfEntry[]) {
    this.haystacks = entries.map(shelfHaystack);
  }

  /** Positions of the entries in `sort` order; ties keep the service's order (as a stable sort would). */
  private order(sort: ShelfSort): Uint32Array {
    const held = this.orders.get(sort);
    if (held) return held;
    const compare = shelfComparators[sort];
    const { entries } = this;
    const positions = Uint32Array.from(entries.keys());
    // The service sends the shelf newest first: one pass finds it already in order, and no sort is needed.
    let sorted = true;
    for (let i = 1; i < entries.length && sorted; i++) sorted = compare(entries[i - 1]!, entries[i]!) <= 0;
    if (!sorted) positions.sort((a, b) => compare(entries[a]!, entries[b]!) || a - b);
    this.orders.set(sort, positions);
    return positions;
  }

  private matches(text: string, sort: ShelfSort): Uint32Array {
    const needle = shelfNeedle(text);
    if (needle === '') return this.order(sort);
    const last = this.last;
    if (last && last.sort === sort && last.needle === needle) return last.positions;
    // A longer needle matches a subset of what its prefix matched: filter that instead of every handle.
    const from =
      last && last.sort === sort && needle.includes(last.needle) ? last.positions : this.order(sort);
    const found = new Uint32Array(from.length);
    let count = 0;
    for (const position of from) if (this.haystacks[position]!.includes(needle)) found[count++] = position;
    const positions = found.slice(0, count);
    this.last = { needle, sort, positions };
    return positions;
  }

  page(text: string, sort: ShelfSort, offset: number, limit: number): ShelfSlice {
    const positions = this.matches(text, sort);
    const end = Math.min(positions.length, offset + limit);
    const entries: ShelfEntry[] = [];
    for (let i = offset; i < end; i++) entries.push(this.entries[positions[i]!]!);
    return { matched: positions.length, entries };
  }
}
