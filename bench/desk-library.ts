/** A desk.db holding `count` reports of the bench corpus, stored as purchases store them. */
import { openDeskDb, type DeskDb } from '../src/core/db/open';
import { SnapshotStore } from '../src/core/library/snapshots';
import { reportCorpus } from './corpus';

export const BENCH_SERVICE = 'http://bench.invalid';
const STORED_AT = '2026-11-22T00:00:00.000Z';
const BATCH = 1000;

/**
 * Puts the reports into `db` in transactions of BATCH; `indexed`: also runs the indexing pass, as the app
 * does right after each purchase, so the library is in the state a person's would be in.
 */
export function putCorpus(db: DeskDb, count: number, indexed: boolean): void {
  const store = new SnapshotStore(db);
  const corpus = reportCorpus(count);
  for (let i = 0; i < corpus.length; i += BATCH) {
    db.transaction(() => {
      for (const { handle, snapshot, raw } of corpus.slice(i, i + BATCH))
        store.put(BENCH_SERVICE, handle, [{ snapshot, raw }], null, STORED_AT);
    })();
  }
  if (indexed) store.indexPending();
}

/** Fills and closes the library file, so the desk opens it as a person's library is opened. */
export function fillLibraryFile(file: string, count: number): void {
  const { db } = openDeskDb(file);
  try {
    putCorpus(db, count, true);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}
