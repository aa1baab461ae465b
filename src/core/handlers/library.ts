/** The contract's library domain (src/shared/rpc/library.ts): listing, search and saved searches. */
import type { RpcHandlers } from '../../shared/rpc';
import type { LibraryReports } from '../library/reports';
import type { SnapshotStore } from '../library/snapshots';
import type { SavedSearchStore } from '../library/saved-searches';

export interface LibraryHandlersDeps {
  readonly reports: LibraryReports;
  readonly snapshots: Pick<SnapshotStore, 'handles'>;
  readonly savedSearches: SavedSearchStore;
}

export const libraryHandlers = ({
  reports,
  snapshots,
  savedSearches: searches,
}: LibraryHandlersDeps): Pick<
  RpcHandlers,
  | 'library.list'
  | 'library.handles'
  | 'library.search'
  | 'library.exportFolder'
  | 'searches.list'
  | 'searches.save'
  | 'searches.rename'
  | 'searches.delete'
> => ({
  'library.list': async (input) => reports.list(input),
  'library.handles': async () => ({ handles: snapshots.handles() }),
  'library.search': async (input) => reports.search(input),
  'library.exportFolder': async ({ dir, handle }) => reports.exportFolder(dir, handle),
  'searches.list': async () => ({ searches: searches.list() }),
  'searches.save': async ({ name, query }) => searches.save(name, query),
  'searches.rename': async ({ id, name }) => searches.rename(id, name),
  'searches.delete': async ({ id }) => ({ deleted: searches.delete(id) }),
});
