/** The library's stores put together: the reports and their search, the person's labels and saved searches, the secret. */
import path from 'node:path';
import type { DeskEvents } from '../base/events';
import type { DeskDb } from '../db/open';
import type { CatalogCache } from '../catalog/catalog-cache';
import type { LocalSealer } from '../wallet/sealing';
import { SnapshotStore } from '../library/snapshots';
import { ReportLabelStore } from '../library/report-labels';
import { SavedSearchStore } from '../library/saved-searches';
import { LibrarySecret } from '../library/library-secret';
import type { DeskCoreOptions } from './desk-options';
import type { DeskService } from './service';

export interface LibraryParts {
  db: DeskDb;
  events: DeskEvents;
  now: () => number;
  sealer: LocalSealer;
  service: DeskService;
  /** What stopped a step of the background indexing pass (see SearchIndex). */
  onIndexError: (error: unknown) => void;
  /** The shelf's display names, for a report whose handle the library has not named. */
  cache: Pick<CatalogCache, 'displayNameOf'>;
  options: Pick<DeskCoreOptions, 'dataDir'>;
}

export class Library {
  readonly snapshots: SnapshotStore;
  /** The person's own words about their library: tags and notes on reports, and saved searches. */
  readonly labels: ReportLabelStore;
  readonly savedSearches: SavedSearchStore;
  /** The library secret: which may go where, and what the service said of it (library-secret.ts). */
  readonly secret: LibrarySecret;

  constructor({ db, events, now, sealer, service, onIndexError, cache, options }: LibraryParts) {
    this.snapshots = new SnapshotStore(db, events, onIndexError, (serviceUrl, handle) =>
      cache.displayNameOf(serviceUrl, handle),
    );
    this.labels = new ReportLabelStore(db, () => new Date(now()));
    this.savedSearches = new SavedSearchStore(db, () => new Date(now()));
    this.secret = new LibrarySecret({
      file: path.join(options.dataDir, 'library-secret.sealed'),
      sealer,
      events,
      serviceUrl: () => service.serviceUrl(),
      savedServiceUrl: () => service.savedServiceUrl(),
      client: () => service.client(),
    });
  }
}
