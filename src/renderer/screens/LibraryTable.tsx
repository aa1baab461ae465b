/**
 * The owned reports as a virtualized table: only the rows in view (plus a few) are in the DOM, so 10k+ reports
 * open as fast as ten. One tab stop; arrows, PageUp/PageDown, Home/End move the current row, Enter opens it.
 */
import { useState, type KeyboardEvent, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { LibraryItem } from '../../shared/rpc';
import { day } from '../format';

/** Both must match `.library-table` in styles.css: rows have a fixed height, the header sticks on top. */
const ROW_HEIGHT = 36;
const HEAD_HEIGHT = 36;

interface Props {
  items: LibraryItem[];
  onOpen(item: LibraryItem): void;
  /** The table is also the scrolling element and the one tab stop; the screen focuses it from the search. */
  tableRef: RefObject<HTMLTableElement | null>;
}

export function LibraryTable({ items, onOpen, tableRef }: Props) {
  const [cursor, setCursor] = useState(0);
  const current = Math.max(0, Math.min(cursor, items.length - 1));

  const virtual = useVirtualizer({
    count: items.length,
    getScrollElement: () => tableRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => items[index]?.id ?? index,
    // The rows start below the header inside the scrolling table, and the sticky header covers that much.
    scrollMargin: HEAD_HEIGHT,
    scrollPaddingStart: HEAD_HEIGHT,
    overscan: 8,
  });
  const rows = virtual.getVirtualItems();

  const move = (to: number) => {
    const next = Math.max(0, Math.min(items.length - 1, to));
    setCursor(next);
    virtual.scrollToIndex(next);
  };
  const onKey = (event: KeyboardEvent<HTMLTableElement>) => {
    // Enter on a row's own button is that button's click; the table must not open a second report.
    if (event.target !== event.currentTarget && event.target instanceof HTMLButtonElement) return;
    const height = (tableRef.current?.clientHeight ?? HEAD_HEIGHT + ROW_HEIGHT) - HEAD_HEIGHT;
    const page = Math.max(1, Math.floor(height / ROW_HEIGHT));
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      PageDown: current + page,
      PageUp: current - page,
      Home: 0,
      End: items.length - 1,
    };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      move(target);
    } else if (event.key === 'Enter' && items[current]) {
      event.preventDefault();
      onOpen(items[current]);
    }
  };

  const currentShown = rows.some((row) => row.index === current);
  return (
    <table
      ref={tableRef}
      className="menu-table library-table"
      role="grid"
      aria-label="Owned reports"
      aria-rowcount={items.length + 1}
      aria-activedescendant={currentShown ? `library-row-${current}` : undefined}
      aria-readonly="true"
      data-testid="library-items"
      tabIndex={0}
      onKeyDown={onKey}
    >
      <thead role="rowgroup">
        <tr role="row" aria-rowindex={1}>
          <th scope="col" role="columnheader">
            Handle
          </th>
          <th scope="col" role="columnheader">
            Date
          </th>
          <th scope="col" role="columnheader">
            Model
          </th>
          <th scope="col" role="columnheader">
            Posts
          </th>
          <th scope="col" role="columnheader">
            Bought
          </th>
        </tr>
      </thead>
      <tbody role="rowgroup" style={{ height: virtual.getTotalSize() }}>
        {rows.map((row) => {
          const item = items[row.index];
          if (!item) return null;
          return (
            <tr
              key={`${item.serviceUrl} ${item.id}`}
              id={`library-row-${row.index}`}
              role="row"
              aria-rowindex={row.index + 2}
              aria-selected={row.index === current}
              className={row.index === current ? 'current' : undefined}
              style={{ transform: `translateY(${row.start - HEAD_HEIGHT}px)` }}
              onClick={() => setCursor(row.index)}
            >
              <td role="gridcell">
                @<bdi>{item.handle}</bdi>
              </td>
              <td role="gridcell">
                <button type="button" className="link" tabIndex={-1} onClick={() => onOpen(item)}>
                  {day(item.createdAt)}
                </button>
              </td>
              <td role="gridcell">
                <bdi>{item.model}</bdi>
              </td>
              <td role="gridcell">{item.postCount ?? '—'}</td>
              <td role="gridcell" className="muted">
                {day(item.purchasedAt)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
