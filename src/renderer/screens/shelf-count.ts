/**
 * The Shelf filter's count, worked out in the window in the frame the key was typed in. Core still filters
 * and sorts the rows it sends (shelf-pages.ts), which takes a round trip; the count (and so the list's
 * length) needs only what the filter matches, fetched once per shelf after the first paint (about 40 bytes a
 * handle). The rule is core's own (shelf-filter.ts), so both agree.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ShelfSummary } from '../../shared/rpc';
import { shelfNeedle } from '../../shared/shelf-filter';
import { useRpcQuery } from '../rpc/context';

/** At the latest this long after the shelf's first answer, the window asks for what the filter matches. */
const HAYSTACKS_AFTER_MS = 1_000;

/** Counts the haystacks that contain a needle; a longer needle narrows what its prefix matched. */
export class ShelfMatcher {
  private last: { needle: string; positions: Uint32Array } | null = null;

  constructor(private readonly haystacks: readonly string[]) {}

  count(needle: string): number {
    if (needle === '') return this.haystacks.length;
    const last = this.last;
    if (last?.needle === needle) return last.positions.length;
    const { haystacks } = this;
    const narrowing = last !== null && needle.includes(last.needle);
    const found = new Uint32Array(narrowing ? last.positions.length : haystacks.length);
    let count = 0;
    if (narrowing) {
      for (const position of last.positions)
        if (haystacks[position]!.includes(needle)) found[count++] = position;
    } else {
      for (let position = 0; position < haystacks.length; position++)
        if (haystacks[position]!.includes(needle)) found[count++] = position;
    }
    this.last = { needle, positions: found.slice(0, count) };
    return count;
  }
}

/** How many handles on the shelf match `text`; null until the shelf's haystacks have come. */
export function useShelfCount(summary: ShelfSummary | undefined, text: string): number | null {
  const version = summary?.version;
  // Asked for once the first rows are painted and the window is idle: never in the way of the first paint.
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (version === undefined) return;
    const handle = requestIdleCallback(() => setIdle(true), { timeout: HAYSTACKS_AFTER_MS });
    return () => cancelIdleCallback(handle);
  }, [version]);
  const haystacks = useRpcQuery(
    'shelf.haystacks',
    { version },
    { enabled: idle && version !== undefined, staleTime: Number.POSITIVE_INFINITY },
  );
  const held = haystacks.data?.version === version ? haystacks.data?.haystacks : undefined;
  const matcher = useMemo(() => (held ? new ShelfMatcher(held) : null), [held]);
  const needle = shelfNeedle(text);
  return useMemo(() => matcher?.count(needle) ?? null, [matcher, needle]);
}
