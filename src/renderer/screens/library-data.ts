/**
 * The Library's data from core a page at a time: the list (pages of the rows in view, by their place in the
 * order, so End or a dragged scrollbar asks for the last page alone) and search results (pages of hits with
 * snippets). Only the pages scrolled to are held, so a 100k library opens as a small one does.
 */
import {
  queryOptions,
  useInfiniteQuery,
  useQueries,
  useQuery,
  type QueryClient,
} from '@tanstack/react-query';
import {
  MAX_SEARCH_OFFSET,
  type LibraryItem,
  type LibraryPage,
  type LibrarySort,
  type RpcClient,
  type SearchView,
} from '../../shared/rpc';
import { useRpc } from '../rpc/context';
import { rpcQueryKey } from '../rpc/query-key';
import { pagesTouched, rowFromPages } from '../components/paged-rows';

export const LIBRARY_PAGE = 200;
export const SEARCH_PAGE = 25;
/** While core's indexing pass is behind, the first page is asked for again this often to show its progress. */
export const INDEXING_POLL_MS = 1000;

export interface LibraryView {
  sort: LibrarySort;
  order: 'asc' | 'desc';
}

/** Newest, latest bought and most expensive first; handles A to Z. */
export const DEFAULT_ORDER: Record<LibrarySort, 'asc' | 'desc'> = {
  date: 'desc',
  handle: 'asc',
  purchased: 'desc',
  spent: 'desc',
};

/** What the Library screen opens with: every handle, newest first. */
export const OPENING_VIEW: LibraryView = { sort: 'date', order: 'desc' };

function libraryPage(client: RpcClient, handle: string, view: LibraryView, page: number) {
  const input = {
    ...(handle ? { handle } : {}),
    sort: view.sort,
    order: view.order,
    limit: LIBRARY_PAGE,
    ...(page > 0 ? { offset: page * LIBRARY_PAGE } : {}),
  };
  return queryOptions({
    // Keyed under 'library.list' so a purchase that refreshes the library refreshes these pages too.
    queryKey: rpcQueryKey('library.list', input),
    queryFn: (): Promise<LibraryPage> => client.call('library.list', input),
  });
}

/** The first page, with the library's count and total spent (and how far indexing has got). */
export function useLibraryHead(handle: string, view: LibraryView) {
  const { client } = useRpc();
  return useQuery({
    ...libraryPage(client, handle, view, 0),
    refetchInterval: (query) => (query.state.data?.indexing ? INDEXING_POLL_MS : false),
  });
}

/**
 * The rows from `first` to `last` of the list whose first page is `head`, and the row at `also` (the current
 * one, wherever it is scrolled): each page they touch is asked for on its own, so a jump to the end of 100k
 * reports is one request, not 500 in a row.
 */
export function useLibraryRows(
  handle: string,
  view: LibraryView,
  head: LibraryPage,
  range: { first: number; last: number; also: number },
): { rowAt(index: number): LibraryItem | undefined; fetching: boolean } {
  const { client } = useRpc();
  const lastRow = head.total - 1;
  const pages = pagesTouched(
    LIBRARY_PAGE,
    Math.min(range.first, lastRow),
    Math.min(range.last, lastRow),
    Math.min(range.also, lastRow),
  );
  // While indexing, reports join the order anywhere: the pages in view are asked for again with the first.
  const refetchInterval = head.indexing ? INDEXING_POLL_MS : false;
  const answers = useQueries({
    queries: pages.map((page) => ({ ...libraryPage(client, handle, view, page), refetchInterval })),
  });
  const loaded = new Map<number, LibraryItem[]>([[0, head.items]]);
  answers.forEach((answer, i) => {
    if (answer.data) loaded.set(pages[i]!, answer.data.items);
  });
  return {
    rowAt: rowFromPages(LIBRARY_PAGE, loaded),
    fetching: answers.some((answer) => answer.isFetching),
  };
}

/**
 * Asks core for the Library's first page as its link is clicked: the answer is on its way while the screen
 * renders, instead of after.
 */
export function prefetchLibrary(queryClient: QueryClient, client: RpcClient, handle = ''): void {
  void queryClient.prefetchQuery(libraryPage(client, handle, OPENING_VIEW, 0));
}

export function useSearchPages(text: string, handle: string) {
  const { client } = useRpc();
  // The app searches as the person types: the last bare word is a prefix of what they are typing.
  const input = { text, ...(handle ? { handle } : {}), limit: SEARCH_PAGE, prefixLast: true };
  return useInfiniteQuery({
    queryKey: rpcQueryKey('library.search', input),
    queryFn: ({ pageParam }): Promise<SearchView> =>
      client.call('library.search', { ...input, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const shown = pages.reduce((sum, page) => sum + page.hits.length, 0);
      const more = shown < last.count || (last.countCapped && shown <= MAX_SEARCH_OFFSET);
      return last.hits.length === SEARCH_PAGE && more ? shown : undefined;
    },
    enabled: text.length > 0,
  });
}
