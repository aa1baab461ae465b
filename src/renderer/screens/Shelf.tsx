/**
 * Every handle on the service: filter as you type, sort, arrow keys, virtualized for 100k rows against the
 * page's own scroll, so the list takes its natural height and there is one scrollbar. Core filters and sorts
 * the shelf it holds and sends the pages the list shows (shelf-pages.ts).
 */
import {
  useCallback,
  useDeferredValue,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRpc, useRpcQuery } from '../rpc/context';
import { rpcQueryKey } from '../rpc/query-key';
import { useNavigate } from '../hooks/route';
import { useSlashFocus } from '../hooks/keys';
import { useFixedRows } from '../components/fixed-rows';
import { Empty, ErrorLine, ErrorMessage, Loading, StaleBanner } from '../components/States';
import { number, plural } from '../format';
import { shelfText as t } from '../text/shelf';
import { SHELF_ROW_HEIGHT, ShelfRow } from './ShelfRow';
import { handleKey } from '../../shared/handle-key';
import { shelfHaystack, shelfNeedle, type ShelfSort } from '../../shared/shelf-filter';
import { SHELF_SUMMARY, useShelfHead, useShelfRows } from './shelf-pages';
import { useShelfCount } from './shelf-count';

const rowIndexes = (range: { first: number; last: number }) =>
  Array.from({ length: range.last - range.first + 1 }, (_, i) => range.first + i);

export function ShelfScreen() {
  const summary = useRpcQuery('shelf.summary', SHELF_SUMMARY);
  // Core answers the saved copy when the service is away, so a failed summary means there is no shelf to
  // show, not even the one react-query still holds (of an earlier answer, maybe of another service).
  const noShelf = summary.isError;
  const shelf = noShelf ? undefined : summary.data;
  const { client } = useRpc();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [sort, setSort] = useState<ShelfSort>('updated');
  const [cursor, setCursor] = useState(0);
  const filterRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  useSlashFocus(filterRef);

  // Handles with reports in the library are marked; the library is local, so this never waits on the network.
  // One row per owned handle, not the whole library: a 100k-report library must not slow the Shelf.
  const library = useRpcQuery('library.handles', {});
  const owned = useMemo(
    () => new Map((library.data?.handles ?? []).map((owner) => [handleKey(owner.handle), owner.reports])),
    [library.data],
  );
  // Core is asked for the rows after the frame that shows the key: the key's own task only counts (below)
  // and renders the rows already here.
  const asked = useDeferredValue(text);
  const head = useShelfHead(summary.data, asked, sort);
  // Counted here as the key is typed; core's answer brings the same count with the rows.
  const counted = useShelfCount(summary.data, text);
  const matched = counted ?? head.data?.matched ?? 0;
  // While core answers a new filter, the rows already here that match it stay (the same rule as core's), so
  // a row typed for never gives way to rows that do not match.
  const needle = shelfNeedle(text);
  const waiting = head.isPlaceholderData || asked !== text;
  const interim = useMemo(
    () =>
      waiting && head.data
        ? head.data.entries.filter((entry) => shelfHaystack(entry).includes(needle))
        : null,
    [waiting, head.data, needle],
  );
  const shown = interim && counted === null ? interim.length : matched;
  const total = head.data?.total ?? summary.data?.total ?? 0;
  const [listTop, setListTop] = useState(0);
  // Where the list starts in the page moves with what is above it (banners, the welcome): measured again
  // whenever the page's size changes.
  const hasRows = shown > 0;
  useLayoutEffect(() => {
    const measure = () => {
      const list = listRef.current;
      if (list) setListTop(list.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [hasRows]);
  const rows = useFixedRows({
    count: shown,
    rowHeight: SHELF_ROW_HEIGHT,
    // Few rows past the view: each one is DOM made again for every key that changes the matches.
    overscan: 2,
    offset: listTop,
    scroller: null,
  });
  const pageRowAt = useShelfRows(summary.data, head, { text: asked, sort }, rows);
  const rowAt = interim ? (index: number) => interim[index] : pageRowAt;

  const move = (to: number) => {
    const next = Math.max(0, Math.min(shown - 1, to));
    setCursor(next);
    rows.scrollToIndex(next);
  };
  const onListKey = (event: KeyboardEvent) => {
    const page = Math.max(1, Math.floor(window.innerHeight / SHELF_ROW_HEIGHT) - 2);
    const moves: Record<string, number> = {
      ArrowDown: cursor + 1,
      ArrowUp: cursor - 1,
      PageDown: cursor + page,
      PageUp: cursor - page,
      Home: 0,
      End: shown - 1,
    };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      move(target);
    } else if (event.key === 'Enter') {
      const entry = rowAt(cursor);
      if (entry) navigate({ screen: 'menu', handle: entry.username });
    }
  };

  const openHandle = useCallback((handle: string) => navigate({ screen: 'menu', handle }), [navigate]);

  const refresh = useMutation({
    mutationFn: () => client.call('shelf.summary', { ...SHELF_SUMMARY, refresh: true }),
    onSuccess: (fresh) => queryClient.setQueryData(rpcQueryKey('shelf.summary', SHELF_SUMMARY), fresh),
  });

  return (
    <section aria-labelledby="shelf-title">
      <div className="screen-head">
        <h1 id="shelf-title">{t('title')}</h1>
        <div className="toolbar">
          <input
            ref={filterRef}
            type="search"
            placeholder={t('filterPlaceholder')}
            aria-label={t('filterLabel')}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setCursor(0);
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                listRef.current?.focus();
              }
            }}
          />
          <label>
            {t('sort')}{' '}
            <select value={sort} onChange={(e) => setSort(e.target.value as ShelfSort)}>
              <option value="updated">{t('sortUpdated')}</option>
              <option value="name">{t('sortName')}</option>
              <option value="followers">{t('sortFollowers')}</option>
              <option value="reports">{t('sortReports')}</option>
            </select>
          </label>
          <button type="button" onClick={() => refresh.mutate()} disabled={refresh.isPending}>
            {t('refresh')}
          </button>
        </div>
      </div>
      {shelf ? (
        <StaleBanner stale={shelf.stale} fetchedAt={shelf.fetchedAt} reason={shelf.staleReason} />
      ) : null}
      {shelf?.skippedEntries ? (
        <p className="warn-text" data-testid="skipped-entries">
          {t(shelf.skippedEntries === 1 ? 'skippedOne' : 'skippedMany', {
            entries: plural(shelf.skippedEntries, t('entry'), t('entries')),
          })}
        </p>
      ) : null}
      {noShelf ? null : <ErrorLine error={refresh.error} />}
      {summary.isPending || (shelf && !head.data && !head.isError) ? <Loading label={t('loading')} /> : null}
      {noShelf ? <ErrorMessage error={summary.error} onRetry={() => void summary.refetch()} /> : null}
      {!noShelf && head.isError ? (
        <ErrorMessage error={head.error} onRetry={() => void head.refetch()} />
      ) : null}
      {noShelf || shelf?.stale ? (
        <p className="offline-pointer" data-testid="offline-pointer">
          {noShelf ? t('noCopy') : t('lastFetched')}
          {t('ownedOffline')}{' '}
          <button type="button" className="link" onClick={() => navigate({ screen: 'library' })}>
            {t('openLibrary')}
          </button>
          {t('sentenceEnd')}
        </p>
      ) : null}
      {shelf && !shelf.configured ? (
        <Empty title={t('notConfiguredTitle')}>
          <p>{t('notConfigured')}</p>
        </Empty>
      ) : null}
      {shelf?.configured && head.data && matched === 0 ? (
        <Empty title={text ? t('noMatch', { text }) : t('empty')} />
      ) : null}
      {shelf && matched > 0 ? (
        <>
          <p className="muted count" data-testid="shelf-count">
            {t('count', { matched: number(matched), total: number(total) })}
          </p>
          <div
            ref={listRef}
            className="shelf-list"
            role="listbox"
            aria-label={t('listLabel')}
            aria-activedescendant={rowAt(cursor) ? `shelf-${cursor}` : undefined}
            tabIndex={0}
            onKeyDown={onListKey}
          >
            <div style={{ height: rows.totalHeight, position: 'relative' }}>
              {rowIndexes(rows).map((index) => {
                const entry = rowAt(index);
                // A row whose page is still on its way keeps its place, empty, so the list never jumps.
                if (!entry) return null;
                return (
                  <ShelfRow
                    key={entry.username}
                    entry={entry}
                    index={index}
                    current={index === cursor}
                    owned={owned.get(handleKey(entry.username))}
                    onOpen={openHandle}
                  />
                );
              })}
            </div>
          </div>
        </>
      ) : null}
    </section>
  );
}
