/**
 * The owned reports as a virtualized table over the pages of the rows in view: the table is as tall as the
 * whole library (`total` rows), only the rows in view (plus a few) are in the DOM, and a row whose page has not
 * come yet shows as loading until it does. One tab stop; arrows, PageUp/PageDown, Home/End move the current row,
 * Enter opens it. Handle, Date, Bought and Spent sort (in core, over an index each).
 */
import { memo, useState, type KeyboardEvent, type RefObject } from 'react';
import type { LibraryItem, LibraryPage, LibrarySort } from '../../shared/rpc';
import { day, localDay, usd } from '../format';
import { Tags } from '../components/Tags';
import { TeamMark } from '../components/TeamMark';
import { useFixedRows } from '../components/fixed-rows';
import { DEFAULT_ORDER, useLibraryRows, type LibraryView } from './library-data';
import { libraryText as t } from '../text/library';

/**
 * Both must match `.library-table` in styles/library-purchases.css: rows have a fixed height, the header
 * sticks on top.
 */
const ROW_HEIGHT = 36;
const HEAD_HEIGHT = 36;

interface Props {
  /** The handle the list is narrowed to ('' for all), and the list's first page. */
  handle: string;
  head: LibraryPage;
  view: LibraryView;
  onSort(view: LibraryView): void;
  onOpen(item: LibraryItem): void;
  /** The table is also the scrolling element and the one tab stop; the screen focuses it from the search. */
  tableRef: RefObject<HTMLTableElement | null>;
}

const COLUMNS: { label: string; sort?: LibrarySort; num?: boolean }[] = [
  { label: t('columnHandle'), sort: 'handle' },
  { label: t('columnDate'), sort: 'date' },
  { label: t('columnModel') },
  { label: t('columnPosts'), num: true },
  { label: t('columnBought'), sort: 'purchased' },
  { label: t('columnSpent'), sort: 'spent', num: true },
];

function SortHeader(props: {
  label: string;
  sort: LibrarySort;
  num: boolean;
  view: LibraryView;
  onSort: Props['onSort'];
}) {
  const active = props.view.sort === props.sort;
  const order = active ? props.view.order : DEFAULT_ORDER[props.sort];
  return (
    <th
      scope="col"
      role="columnheader"
      className={props.num ? 'num' : undefined}
      aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button
        type="button"
        className="link sort"
        tabIndex={-1}
        onClick={() =>
          props.onSort({
            sort: props.sort,
            order: active ? (order === 'asc' ? 'desc' : 'asc') : DEFAULT_ORDER[props.sort],
          })
        }
      >
        {props.label}
        {active ? <span aria-hidden="true">{order === 'asc' ? ' ▲' : ' ▼'}</span> : null}
      </button>
    </th>
  );
}

/**
 * Memoized: the screen re-renders on every key typed in its search box, and the table's rows need not (they
 * cost most of a frame at 200 rows a page).
 */
export const LibraryTable = memo(function LibraryTable(props: Props) {
  const { handle, head, view, onOpen, tableRef } = props;
  const total = head.total;
  const [cursor, setCursor] = useState(0);
  const current = Math.max(0, Math.min(cursor, total - 1));

  const range = useFixedRows({
    count: total,
    rowHeight: ROW_HEIGHT,
    overscan: 8,
    // The rows start below the header inside the scrolling table, and the sticky header covers that much.
    offset: HEAD_HEIGHT,
    coveredTop: HEAD_HEIGHT,
    scroller: tableRef,
  });
  const rows = Array.from({ length: range.last - range.first + 1 }, (_, i) => range.first + i);
  // The current row's page too: Enter opens it even while it is scrolled out of view.
  const { rowAt, fetching } = useLibraryRows(handle, view, head, { ...range, also: current });

  const move = (to: number) => {
    const next = Math.max(0, Math.min(total - 1, to));
    setCursor(next);
    range.scrollToIndex(next);
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
      End: total - 1,
    };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      move(target);
    } else if (event.key === 'Enter') {
      const item = rowAt(current);
      if (!item) return;
      event.preventDefault();
      onOpen(item);
    }
  };

  const currentShown = current >= range.first && current <= range.last && rowAt(current) !== undefined;
  return (
    <table
      ref={tableRef}
      className="menu-table library-table"
      role="grid"
      aria-label={t('tableLabel')}
      aria-rowcount={total + 1}
      aria-activedescendant={currentShown ? `library-row-${current}` : undefined}
      aria-readonly="true"
      aria-busy={fetching}
      data-testid="library-items"
      tabIndex={0}
      onKeyDown={onKey}
    >
      <thead role="rowgroup">
        <tr role="row" aria-rowindex={1}>
          {COLUMNS.map((column) =>
            column.sort ? (
              <SortHeader
                key={column.label}
                label={column.label}
                sort={column.sort}
                num={column.num ?? false}
                view={props.view}
                onSort={props.onSort}
              />
            ) : (
              <th
                key={column.label}
                scope="col"
                role="columnheader"
                className={column.num ? 'num' : undefined}
              >
                {column.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody role="rowgroup" style={{ height: range.totalHeight }}>
        {rows.map((index) => {
          const item = rowAt(index);
          const style = { transform: `translateY(${index * ROW_HEIGHT}px)` };
          if (!item) {
            return (
              <tr
                key={`row ${index}`}
                role="row"
                aria-rowindex={index + 2}
                className="loading-row"
                style={style}
              >
                <td role="gridcell" className="muted">
                  {t('loading')}
                </td>
              </tr>
            );
          }
          return (
            <tr
              key={`${item.serviceUrl} ${item.id}`}
              id={`library-row-${index}`}
              role="row"
              aria-rowindex={index + 2}
              aria-selected={index === current}
              className={index === current ? 'current' : undefined}
              style={style}
              onClick={() => setCursor(index)}
            >
              {/* One form on every row, whether or not the service sent a display name: the name is on hover. */}
              <td
                role="gridcell"
                title={item.displayName ? `${item.displayName} @${item.username}` : undefined}
              >
                @<bdi>{item.username}</bdi>
              </td>
              <td role="gridcell">
                <button type="button" className="link" tabIndex={-1} onClick={() => onOpen(item)}>
                  {day(item.createdAt)}
                </button>
              </td>
              <td role="gridcell">
                <bdi>{item.model}</bdi> <Tags tags={item.tags} note={item.note} />{' '}
                <TeamMark boughtBy={item.boughtBy} />
              </td>
              <td role="gridcell" className="num">
                {item.postCount ?? '—'}
              </td>
              <td role="gridcell" className="muted">
                {localDay(item.purchasedAt)}
              </td>
              <td role="gridcell" className="num">
                {usd(item.spentUnits)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
});
