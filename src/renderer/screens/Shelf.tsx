/** Every handle on the service: filter as you type, sort, arrow keys, virtualized for 100k rows. */
import { useDeferredValue, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRpc, useRpcQuery } from '../rpc/context';
import { errorMessage } from '../rpc/client';
import { useNavigate } from '../app/route';
import { useSlashFocus } from '../app/keys';
import { Avatar } from '../components/Avatar';
import { Empty, ErrorMessage, Loading, StaleBanner } from '../components/States';
import { count, day, plural, pluralWord } from '../format';
import { filterShelf, indexShelf, type ShelfSort } from './shelf-filter';

const ROW_HEIGHT = 56;

export function ShelfScreen() {
  const shelf = useRpcQuery('shelf.list', {});
  const { client } = useRpc();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [sort, setSort] = useState<ShelfSort>('updated');
  const [cursor, setCursor] = useState(0);
  const filterRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  useSlashFocus(filterRef);

  const index = useMemo(() => indexShelf(shelf.data?.entries ?? []), [shelf.data]);
  const deferredText = useDeferredValue(text);
  const rows = useMemo(() => filterShelf(index, deferredText, sort), [index, deferredText, sort]);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });

  const move = (to: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, to));
    setCursor(next);
    virtual.scrollToIndex(next);
  };
  const onListKey = (event: KeyboardEvent) => {
    const page = Math.max(1, Math.floor((listRef.current?.clientHeight ?? ROW_HEIGHT) / ROW_HEIGHT));
    const moves: Record<string, number> = {
      ArrowDown: cursor + 1,
      ArrowUp: cursor - 1,
      PageDown: cursor + page,
      PageUp: cursor - page,
      Home: 0,
      End: rows.length - 1,
    };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      move(target);
    } else if (event.key === 'Enter' && rows[cursor]) {
      navigate({ screen: 'menu', handle: rows[cursor].username });
    }
  };

  const refresh = useMutation({
    mutationFn: () => client.call('shelf.list', { refresh: true }),
    onSuccess: (fresh) => queryClient.setQueryData(['shelf.list', {}], fresh),
  });

  return (
    <section aria-labelledby="shelf-title">
      <div className="screen-head">
        <h1 id="shelf-title">Shelf</h1>
        <div className="toolbar">
          <input
            ref={filterRef}
            type="search"
            placeholder="Filter handles  ( / )"
            aria-label="Filter handles"
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
            Sort{' '}
            <select value={sort} onChange={(e) => setSort(e.target.value as ShelfSort)}>
              <option value="updated">Last update</option>
              <option value="name">Name</option>
              <option value="followers">Followers</option>
              <option value="reports">Reports</option>
            </select>
          </label>
          <button type="button" onClick={() => refresh.mutate()} disabled={refresh.isPending}>
            Refresh
          </button>
        </div>
      </div>
      {shelf.data ? (
        <StaleBanner
          stale={shelf.data.stale}
          fetchedAt={shelf.data.fetchedAt}
          reason={shelf.data.staleReason}
        />
      ) : null}
      {shelf.data?.skippedEntries ? (
        <p className="warn-text" data-testid="skipped-entries">
          {plural(shelf.data.skippedEntries, 'entry', 'entries')} from the service had no valid handle and{' '}
          {pluralWord(shelf.data.skippedEntries, 'is', 'are')} not shown.
        </p>
      ) : null}
      {refresh.isError ? (
        <p className="error-text" role="alert">
          {errorMessage(refresh.error)}
        </p>
      ) : null}
      {shelf.isPending ? <Loading label="Loading the shelf…" /> : null}
      {shelf.isError ? <ErrorMessage error={shelf.error} onRetry={() => void shelf.refetch()} /> : null}
      {shelf.data && !shelf.data.configured ? (
        <Empty title="This service has no shared reports yet.">
          <p>Its store is not configured. Point Intel Desk at another service in Settings.</p>
        </Empty>
      ) : null}
      {shelf.data?.configured && rows.length === 0 ? (
        <Empty title={text ? `No handle matches “${text}”.` : 'The shelf is empty.'} />
      ) : null}
      {shelf.data && rows.length > 0 ? (
        <>
          <p className="muted count" data-testid="shelf-count">
            {rows.length.toLocaleString('en-US')} of {index.length.toLocaleString('en-US')} handles
          </p>
          <div
            ref={listRef}
            className="shelf-list"
            role="listbox"
            aria-label="Handles"
            aria-activedescendant={rows[cursor] ? `shelf-${cursor}` : undefined}
            tabIndex={0}
            onKeyDown={onListKey}
          >
            <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
              {virtual.getVirtualItems().map((item) => {
                const entry = rows[item.index];
                if (!entry) return null;
                return (
                  <div
                    key={entry.username}
                    id={`shelf-${item.index}`}
                    role="option"
                    aria-selected={item.index === cursor}
                    className={item.index === cursor ? 'shelf-row current' : 'shelf-row'}
                    style={{
                      position: 'absolute',
                      top: 0,
                      left: 0,
                      right: 0,
                      height: ROW_HEIGHT,
                      transform: `translateY(${item.start}px)`,
                    }}
                    onClick={() => navigate({ screen: 'menu', handle: entry.username })}
                  >
                    <Avatar url={entry.avatarUrl} name={entry.displayName || entry.username} />
                    <span className="shelf-name">
                      <strong>
                        <bdi>{entry.displayName || entry.username}</bdi>
                        {entry.affiliationLabel ? (
                          <span className="affiliation" title="Affiliation">
                            <bdi>{entry.affiliationLabel}</bdi>
                          </span>
                        ) : null}
                      </strong>
                      <span className="muted">@{entry.username}</span>
                    </span>
                    <span className="shelf-num" title="Followers">
                      {count(entry.followers)} followers
                    </span>
                    <span className="shelf-num" title="Reports">
                      {count(entry.reportCount)} reports
                    </span>
                    <span className="shelf-num muted" title="Last update">
                      {day(entry.gatheredAt)}
                    </span>
                  </div>
                );
              })}
            </div>
          </div>
        </>
      ) : null}
    </section>
  );
}
