/**
 * Everything owned, per handle or across handles, searched with the query language (docs/search.md) and
 * saved searches beside it; all of it works offline. The list comes from core a page at a time as it
 * scrolls (LibraryTable), so 100k reports open as fast as ten.
 */
import {
  memo,
  startTransition,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useRpcQuery } from '../rpc/context';
import { useNavigate } from '../hooks/route';
import { useSlashFocus } from '../hooks/keys';
import { useDebounced } from '../hooks/debounce';
import { Empty, ErrorMessage, Loading } from '../components/States';
import { Snippet } from '../components/Snippet';
import { Tags } from '../components/Tags';
import { TeamMark } from '../components/TeamMark';
import { errorCode } from '../rpc/client';
import { day, number, plural, usd } from '../format';
import { LibraryTable } from './LibraryTable';
import { OPENING_VIEW, useLibraryHead, useSearchPages, type LibraryView } from './library-data';
import { SavedSearches } from './SavedSearches';
import { SearchSyntaxError } from './SearchSyntaxError';
import { QueryHelp } from './QueryHelp';
import { SearchHint } from './SearchHint';
import type { LibraryIndexing, LibraryItem, SearchHit, SearchView } from '../../shared/rpc';
import { LibraryExport } from './LibraryExport';
import { libraryText as t } from '../text/library';

const reports = (n: number) => plural(n, t('report'), t('reportsWord'));
/** At the latest this long after the first rows, the handle list is filled in. */
const HANDLE_OPTIONS_AFTER_MS = 1_000;

/** How the hits are ordered, as the count line says it (see SearchView.order). */
const ORDER_NAMES: Record<SearchView['order'], string> = {
  best: t('orderBest'),
  bought: t('orderBought'),
  newest: t('orderNewest'),
};

/**
 * The hits, memoized and given a deferred list: they are drawn in a transition, which a key typed meanwhile in
 * the search box interrupts, so typing keeps its frame while the last word's hits come in.
 */
const HitList = memo(function HitList(props: { hits: SearchHit[] }) {
  const navigate = useNavigate();
  return (
    <ul className="hits" aria-label={t('searchResults')} data-testid="search-hits">
      {props.hits.map((hit) => (
        <li key={`${hit.serviceUrl} ${hit.id}`}>
          <button
            type="button"
            className="hit"
            onClick={() => navigate({ screen: 'report', id: hit.id, serviceUrl: hit.serviceUrl })}
          >
            <span className="hit-head">
              {hit.displayName ? `${hit.displayName} ` : ''}@{hit.username} · {day(hit.createdAt)} ·{' '}
              {hit.model} <Tags tags={hit.tags} note={hit.note} /> <TeamMark boughtBy={hit.boughtBy} />
            </span>
            <Snippet text={hit.snippet} />
          </button>
        </li>
      ))}
    </ul>
  );
});

function SearchResults(props: { text: string; handle: string; onUse(query: string): void }) {
  const search = useSearchPages(props.text, props.handle);
  const hits = useMemo(() => search.data?.pages.flatMap((page) => page.hits) ?? [], [search.data]);
  const shownHits = useDeferredValue(hits);
  const first = search.data?.pages[0];
  return (
    <div aria-live="polite">
      {search.isPending ? <Loading label={t('searching')} /> : null}
      {search.isError && errorCode(search.error) === 'search_syntax' ? (
        <SearchSyntaxError error={search.error} query={props.text} />
      ) : search.isError ? (
        <ErrorMessage error={search.error} />
      ) : null}
      {first && hits.length === 0 ? (
        <Empty title={t('noMatch', { text: props.text })}>
          <SearchHint text={props.text} handle={props.handle} onUse={props.onUse} />
        </Empty>
      ) : null}
      {first && hits.length > 0 ? (
        <p className="muted count" data-testid="search-count">
          {first.countCapped ? t('moreThan') : ''}
          {t(first.count === 1 ? 'matchOne' : 'matchMany', {
            count: number(first.count),
            order: ORDER_NAMES[first.order],
          })}
        </p>
      ) : null}
      {shownHits.length > 0 ? <HitList hits={shownHits} /> : null}
      {search.hasNextPage ? (
        <button
          type="button"
          onClick={() => void search.fetchNextPage()}
          disabled={search.isFetchingNextPage}
        >
          {search.isFetchingNextPage ? t('loading') : t('moreMatches')}
        </button>
      ) : null}
    </div>
  );
}

/** The indexing pass is behind: newest-first pages hold what it has reached, the rest follows. */
function IndexingNote(props: { indexing: LibraryIndexing }) {
  const { indexed, total } = props.indexing;
  const percent = total > 0 ? Math.floor((indexed / total) * 100) : 0;
  return (
    <p className="muted" role="status" data-testid="library-indexing">
      {t('indexing', { percent, indexed: indexed.toLocaleString('en-US'), reports: reports(total) })}
    </p>
  );
}

export function LibraryScreen(props: { handle?: string | undefined }) {
  const navigate = useNavigate();
  const [handle, setHandle] = useState(props.handle?.toLowerCase() ?? '');
  const [text, setText] = useState('');
  const [view, setView] = useState<LibraryView>(OPENING_VIEW);
  const searchRef = useRef<HTMLInputElement>(null);
  const [syntaxOpen, setSyntaxOpen] = useState(false);
  const syntaxHintId = useId();
  const tableRef = useRef<HTMLTableElement>(null);
  useSlashFocus(searchRef);
  // The first page is asked for first: core answers in order, and the rows should not wait for the handles.
  const list = useLibraryHead(handle, view);
  const handles = useRpcQuery('library.handles', {});
  const settledText = useDebounced(text.trim(), 250);
  const first = list.data;
  const owned = handles.data?.handles.reduce((sum, h) => sum + h.reports, 0) ?? first?.total ?? 0;
  // Stable, so the memoized table is not rendered again for each key typed in the search box.
  const openItem = useCallback(
    (item: LibraryItem) => navigate({ screen: 'report', id: item.id, serviceUrl: item.serviceUrl }),
    [navigate],
  );
  const closeSyntax = useCallback(() => setSyntaxOpen(false), []);
  // Thousands of handles in a large library: their options are made once the first rows are on screen and
  // the window is idle (or as soon as the list is reached for), never in front of the rows, and not again
  // for each key typed. Until then the list holds the chosen handle alone.
  const [allOptions, setAllOptions] = useState(false);
  const rowsShown = first !== undefined;
  useEffect(() => {
    if (!rowsShown || allOptions) return;
    // A transition: React makes the options in slices, and anything waiting for the window runs between them.
    const idle = requestIdleCallback(() => startTransition(() => setAllOptions(true)), {
      timeout: HANDLE_OPTIONS_AFTER_MS,
    });
    return () => cancelIdleCallback(idle);
  }, [rowsShown, allOptions]);
  const wantOptions = () => setAllOptions(true);
  const handleOptions = useMemo(
    () =>
      (handles.data?.handles ?? [])
        .filter((h) => allOptions || h.handle === handle)
        .map((h) => (
          <option key={h.handle} value={h.handle}>
            {h.displayName ? `${h.displayName} (@${h.username})` : `@${h.username}`}
          </option>
        )),
    [handles.data, allOptions, handle],
  );

  return (
    <section aria-labelledby="library-title">
      <div className="screen-head">
        <h1 id="library-title">{t('title')}</h1>
        <div className="toolbar">
          <input
            ref={searchRef}
            type="search"
            className="library-search"
            placeholder={t('searchPlaceholder')}
            aria-label={t('searchLabel')}
            aria-describedby={syntaxHintId}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              // A query never starts with "?": in an empty box it asks for the syntax, as it does elsewhere.
              if (e.key === '?' && text === '') {
                e.preventDefault();
                setSyntaxOpen(true);
                return;
              }
              if (e.key === 'ArrowDown' && tableRef.current) {
                e.preventDefault();
                tableRef.current.focus();
              }
            }}
          />
          <button type="button" aria-keyshortcuts="?" onClick={() => setSyntaxOpen(true)}>
            {t('searchSyntax')}
          </button>
          <span id={syntaxHintId} className="sr-only">
            {t('syntaxHint')}
          </span>
          <QueryHelp open={syntaxOpen} onClose={closeSyntax} />
          <label>
            {t('handle')}{' '}
            <select
              value={handle}
              onChange={(e) => setHandle(e.target.value)}
              onFocus={wantOptions}
              onPointerDown={wantOptions}
              aria-label={t('handle')}
            >
              <option value="">{t('allHandles')}</option>
              {handleOptions}
            </select>
          </label>
          <LibraryExport handle={handle} />
        </div>
      </div>
      <div className="library-layout">
        <SavedSearches query={settledText} onRun={setText} />
        <div className="library-main">
          {list.isPending ? <Loading label={t('opening')} /> : null}
          {list.isError ? <ErrorMessage error={list.error} onRetry={() => void list.refetch()} /> : null}
          {first && owned === 0 ? (
            <Empty title={t('nothingOwned')}>
              <p>{t('nothingOwnedHelp')}</p>
            </Empty>
          ) : null}
          {settledText ? (
            <SearchResults text={settledText} handle={handle} onUse={setText} />
          ) : first && first.total > 0 ? (
            <>
              <p className="muted count library-count">
                <span data-testid="library-count">
                  {handle && first.total !== owned
                    ? t('ownedOf', { shown: number(first.total), reports: reports(owned) })
                    : t('owned', { reports: reports(owned) })}
                </span>
                {' · '}
                <span data-testid="library-spent">{t('spent', { amount: usd(first.totalSpentUnits) })}</span>
              </p>
              {first.indexing ? <IndexingNote indexing={first.indexing} /> : null}
              <LibraryTable
                key={`${handle} ${view.sort} ${view.order}`}
                handle={handle}
                head={first}
                view={view}
                onSort={setView}
                tableRef={tableRef}
                onOpen={openItem}
              />
            </>
          ) : first && owned > 0 ? (
            <Empty title={t('nothingFromHandle', { handle })} />
          ) : null}
        </div>
      </div>
    </section>
  );
}
