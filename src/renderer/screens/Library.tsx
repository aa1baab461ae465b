/**
 * Everything owned, per handle or across handles, with full-text search; all of it works offline. The list is
 * virtualized (LibraryTable), so a library of 10k+ reports shows as fast as a small one.
 */
import { useMemo, useRef, useState } from 'react';
import { useRpcQuery } from '../rpc/context';
import { useNavigate } from '../app/route';
import { useSlashFocus } from '../app/keys';
import { useDebounced } from '../app/debounce';
import { Empty, ErrorMessage, Loading } from '../components/States';
import { Snippet } from '../components/Snippet';
import { day, plural } from '../format';
import { LibraryTable } from './LibraryTable';

const reports = (n: number) => plural(n, 'report');

export function LibraryScreen(props: { handle?: string | undefined }) {
  const navigate = useNavigate();
  const [handle, setHandle] = useState(props.handle ?? '');
  const [text, setText] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  useSlashFocus(searchRef);
  const all = useRpcQuery('library.list', {});
  const settledText = useDebounced(text.trim(), 250);
  const search = useRpcQuery('library.search', { text: settledText }, { enabled: settledText.length > 0 });
  const handles = useMemo(
    () => [...new Set((all.data?.items ?? []).map((item) => item.handle))].sort((a, b) => a.localeCompare(b)),
    [all.data],
  );
  const owned = all.data?.items;
  const items = useMemo(
    () => (owned ?? []).filter((item) => !handle || item.handle === handle),
    [owned, handle],
  );
  const total = owned?.length ?? 0;
  const hits = (search.data?.hits ?? []).filter((hit) => !handle || hit.handle === handle);

  return (
    <section aria-labelledby="library-title">
      <div className="screen-head">
        <h1 id="library-title">Library</h1>
        <div className="toolbar">
          <input
            ref={searchRef}
            type="search"
            placeholder="Search owned reports  ( / )"
            aria-label="Search owned reports"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' && tableRef.current) {
                e.preventDefault();
                tableRef.current.focus();
              }
            }}
          />
          <label>
            Handle{' '}
            <select value={handle} onChange={(e) => setHandle(e.target.value)} aria-label="Handle">
              <option value="">All handles</option>
              {handles.map((h) => (
                <option key={h} value={h}>
                  @{h}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      {all.isPending ? <Loading label="Opening the library…" /> : null}
      {all.isError ? <ErrorMessage error={all.error} onRetry={() => void all.refetch()} /> : null}
      {all.data && all.data.items.length === 0 ? (
        <Empty title="Nothing owned yet.">
          <p>Buy reports from a handle on the Shelf; they stay here, readable offline.</p>
        </Empty>
      ) : null}
      {settledText ? (
        <div aria-live="polite">
          {search.isPending ? <Loading label="Searching…" /> : null}
          {search.isError ? <ErrorMessage error={search.error} /> : null}
          {search.data && hits.length === 0 ? (
            <Empty title={`Nothing owned mentions “${settledText}”.`} />
          ) : null}
          {hits.length > 0 ? (
            <ul className="hits" aria-label="Search results" data-testid="search-hits">
              {hits.map((hit) => (
                <li key={`${hit.serviceUrl} ${hit.id}`}>
                  <button
                    type="button"
                    className="hit"
                    onClick={() => navigate({ screen: 'report', id: hit.id, serviceUrl: hit.serviceUrl })}
                  >
                    <span className="hit-head">
                      @{hit.handle} · {day(hit.createdAt)} · {hit.model}
                    </span>
                    <Snippet text={hit.snippet} />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : items.length > 0 ? (
        <>
          <p className="muted count library-count" data-testid="library-count">
            {handle && items.length !== total ? `${items.length.toLocaleString('en-US')} of ` : ''}
            {reports(total)} owned
          </p>
          <LibraryTable
            key={handle}
            items={items}
            tableRef={tableRef}
            onOpen={(item) => navigate({ screen: 'report', id: item.id, serviceUrl: item.serviceUrl })}
          />
        </>
      ) : total > 0 ? (
        <Empty title={`Nothing owned from @${handle}.`} />
      ) : null}
    </section>
  );
}
