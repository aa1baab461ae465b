/**
 * The Library's data from core a page at a time: the list (keyset pages as the table scrolls) and search
 * results (pages of hits with snippets). Only the pages scrolled to are held, so a 100k library opens as a
 * small one does.
 */
import { infiniteQueryOptions, useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import {
  MAX_SEARCH_OFFSET,
  type LibraryPage,
  type LibrarySort,
  type RpcClient,
  type SearchView,
} from '../../shared/rpc';
import { useRpc } from '../rpc/context';
import { rpcQueryKey } from '../rpc/query-key';

export const LIBRARY_PAGE = 200;
export const SEARCH_PAGE = 25;
/** While core's indexing pass is behind, the pages are asked for again this often to show its progress. */
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

function libraryPages(client: RpcClient, handle: string, view: LibraryView) {
  const input = { ...(handle ? { handle } : {}), sort: view.sort, order: view.order, limit: LIBRARY_PAGE };
  return infiniteQueryOptions({
    // Keyed under 'library.list' so a purchase that refreshes the library refreshes these pages too.
    queryKey: rpcQueryKey('library.list', input),
    queryFn: ({ pageParam }): Promise<LibraryPage> =>
      client.call('library.list', pageParam ? { ...input, cursor: pageParam } : input),
    initialPageParam: null as string | null,
    getNextPageParam: (last: LibraryPage) => last.nextCursor,
  });
}

export function useLibraryPages(handle: string, view: LibraryView) {
  const { client } = useRpc();
  return useInfiniteQuery({
    ...libraryPages(client, handle, view),
    refetchInterval: (query) => (query.state.data?.pages[0]?.indexing ? INDEXING_POLL_MS : false),
  });
}

/**
 * Asks core for the Library's first page as its link is clicked: the answer is on its way while the screen
 * renders, instead of after.
 */
export function prefetchLibrary(queryClient: QueryClient, client: RpcClient, handle = ''): void {
  void queryClient.prefetchInfiniteQuery(libraryPages(client, handle, OPENING_VIEW));
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
