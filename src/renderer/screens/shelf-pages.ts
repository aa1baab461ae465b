/**
 * The shelf a page at a time: core holds the whole shelf and filters and sorts it, and the screen asks only
 * for the pages its virtual list shows, so a 100k-handle shelf paints as fast as a small one.
 */
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import type { RpcInput, ShelfPage, ShelfSummary } from '../../shared/rpc';
import type { ShelfSort } from '../../shared/shelf-filter';
import type { ShelfEntry } from '../../shared/wire';
import { useRpc } from '../rpc/context';
import { rpcQueryKey } from '../rpc/query-key';
import { pagesTouched, rowFromPages } from '../components/paged-rows';

/** Rows per page: the first one fills any window, so the first paint waits for one small answer. */
export const SHELF_PAGE = 100;

/** What the screen asks shelf.summary: the check of the service, and the first page with it. */
export const SHELF_SUMMARY = { firstPage: SHELF_PAGE };

function pageInput(
  summary: ShelfSummary | undefined,
  text: string,
  sort: ShelfSort,
  page: number,
): RpcInput<'shelf.page'> {
  return { version: summary?.version, text, sort, offset: page * SHELF_PAGE, limit: SHELF_PAGE };
}

/**
 * The first page of the filtered, sorted shelf, with the count of matches. While a new filter is on its way
 * the previous answer stays on screen, so typing never blanks the list.
 */
export function useShelfHead(summary: ShelfSummary | undefined, text: string, sort: ShelfSort) {
  const { client } = useRpc();
  const input = pageInput(summary, text, sort, 0);
  // The summary brings the unfiltered first page (SHELF_SUMMARY): the first paint waits for no other answer.
  const first = text === '' && sort === 'updated' ? summary?.first : undefined;
  return useQuery<ShelfPage>({
    queryKey: rpcQueryKey('shelf.page', input),
    queryFn: () => client.call('shelf.page', input),
    enabled: summary !== undefined,
    placeholderData: keepPreviousData,
    ...(first && first.version === summary?.version ? { initialData: first } : {}),
  });
}

/** The row at each index from `first` to `last`, once its page has come (undefined until then). */
export function useShelfRows(
  summary: ShelfSummary | undefined,
  head: { data?: ShelfPage; isPlaceholderData: boolean },
  query: { text: string; sort: ShelfSort },
  range: { first: number; last: number },
): (index: number) => ShelfEntry | undefined {
  const { client } = useRpc();
  const pages = pagesTouched(SHELF_PAGE, range.first, range.last);
  const ready = summary !== undefined && head.data !== undefined && !head.isPlaceholderData;
  const answers = useQueries({
    queries: pages.map((page) => {
      const input = pageInput(summary, query.text, query.sort, page);
      return {
        queryKey: rpcQueryKey('shelf.page', input),
        queryFn: () => client.call('shelf.page', input),
        enabled: ready,
      };
    }),
  });
  const loaded = new Map<number, ShelfEntry[]>();
  if (head.data) loaded.set(0, head.data.entries);
  answers.forEach((answer, i) => {
    if (ready && answer.data) loaded.set(pages[i]!, answer.data.entries);
  });
  return rowFromPages(SHELF_PAGE, loaded);
}
