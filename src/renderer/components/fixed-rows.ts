/**
 * Which rows of a long list are in view, for lists whose rows all have one fixed height: plain arithmetic on
 * the scroll position, so a list of 100k rows costs what a list of ten does. (A general virtualizer keeps an
 * object per row and makes them all again whenever the count changes: 100k of them for each key typed in the
 * Shelf filter, and again when a 100k-report Library opens.)
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

export interface FixedRowsOptions {
  count: number;
  rowHeight: number;
  /** Rows rendered beyond each edge of the view, so a quick scroll does not show a gap. */
  overscan: number;
  /** Where row 0 starts in the scroller's content: the list's top in the page, or a header's height. */
  offset: number;
  /** The element that scrolls; null when the page itself does. */
  scroller: RefObject<HTMLElement | null> | null;
  /** How much of the view a sticky header covers at the top: a row scrolled to stays below it. */
  coveredTop?: number;
}

export interface FixedRows {
  /** First and last index to render; `last < first` when there is none. */
  first: number;
  last: number;
  /** Height of all the rows together. */
  totalHeight: number;
  /** Scrolls the least that brings the row into view (nothing when it is in view already). */
  scrollToIndex(index: number): void;
}

interface View {
  top: number;
  height: number;
}

function readView(scroller: HTMLElement | null): View {
  return scroller
    ? { top: scroller.scrollTop, height: scroller.clientHeight }
    : { top: window.scrollY, height: window.innerHeight };
}

function rangeOf(view: View, options: FixedRowsOptions): { first: number; last: number } {
  const { count, rowHeight, overscan, offset } = options;
  if (count === 0) return { first: 0, last: -1 };
  const firstInView = Math.floor((view.top - offset) / rowHeight);
  const lastInView = Math.floor((view.top + view.height - offset) / rowHeight);
  return {
    first: Math.min(count - 1, Math.max(0, firstInView - overscan)),
    last: Math.min(count - 1, Math.max(0, lastInView + overscan)),
  };
}

export function useFixedRows(options: FixedRowsOptions): FixedRows {
  const { count, rowHeight, offset, scroller, coveredTop = 0 } = options;
  // Before an element has been measured, the window's height stands for its view: a few rows too many at most.
  const [view, setView] = useState<View>(() =>
    scroller ? { top: 0, height: window.innerHeight } : readView(null),
  );
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });
  useLayoutEffect(() => {
    const element = scroller?.current ?? null;
    // A scroll within the rows already rendered renders nothing again: only a change of range does.
    const read = () => {
      const next = readView(element);
      setView((previous) => {
        const before = rangeOf(previous, latest.current);
        const after = rangeOf(next, latest.current);
        return before.first === after.first && before.last === after.last && previous.height === next.height
          ? previous
          : next;
      });
    };
    // The page's position is read at once; an element's size comes with the observer's first callback,
    // after the layout the browser does anyway: read now, it would force one more in the middle of a commit.
    if (!element) read();
    const target: HTMLElement | Window = element ?? window;
    target.addEventListener('scroll', read, { passive: true });
    const resized = new ResizeObserver(read);
    if (element) resized.observe(element);
    else window.addEventListener('resize', read);
    return () => {
      target.removeEventListener('scroll', read);
      resized.disconnect();
      window.removeEventListener('resize', read);
    };
  }, [scroller]);

  const scrollToIndex = (index: number) => {
    const element = scroller?.current ?? null;
    const now = readView(element);
    const rowTop = offset + index * rowHeight;
    const rowBottom = rowTop + rowHeight;
    let to: number;
    if (rowTop < now.top + coveredTop) to = rowTop - coveredTop;
    else if (rowBottom > now.top + now.height) to = rowBottom - now.height;
    else return;
    if (element) element.scrollTo({ top: to });
    else window.scrollTo({ top: to });
  };

  return { ...rangeOf(view, options), totalHeight: count * rowHeight, scrollToIndex };
}
