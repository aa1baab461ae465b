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
import { ShelfMatcher } from './shelf-matcher';

/** At the latest this long after the shelf's first answer, the window asks for what the filter matches. */
const HAYSTACKS_AFTER_MS = 1_000;

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
  // The index is built a step per idle period: a key typed meanwhile searches every haystack.
  useEffect(() => {
    if (!matcher) return;
    let handle = 0;
    const step = () => {
      if (!matcher.indexStep()) handle = requestIdleCallback(step);
    };
    handle = requestIdleCallback(step);
    return () => cancelIdleCallback(handle);
  }, [matcher]);
  const needle = shelfNeedle(text);
  return useMemo(() => matcher?.count(needle) ?? null, [matcher, needle]);
}
