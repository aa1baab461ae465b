/**
 * Full-text search of the library with a bounded cost at any size: the newest CANDIDATES matches are ranked
 * by bm25 and the page of them asked for is returned, with snippets made for that page only; the count stops
 * at COUNT_LIMIT. A word common to every report therefore costs the same at 100k reports as at 5k.
 */
import type { SearchHit, SearchView } from '../../shared/rpc';
import type { IntelReportSnapshot } from '../../shared/wire';
import type { DeskDb } from '../db/open';
import { ITEM_COLUMNS, NAMES_JOIN, toItem, type ItemRow } from './library-page';
import { describeTerms, matchExpression, parseSearch } from './search-syntax';
import { searchableText } from './snapshots';
import { snippetOf } from './snippet';

/** Matches ranked per query; beyond this, the newest matches are ranked (storage order). */
export const CANDIDATES = 1_000;
/** Matches counted per query; beyond this, the count says "at least". */
export const COUNT_LIMIT = 10_000;

export interface SearchRequest {
  text: string;
  handle?: string | undefined;
  limit: number;
  offset: number;
}

function textOf(raw: string): string {
  try {
    return searchableText(JSON.parse(raw) as IntelReportSnapshot);
  } catch {
    return '';
  }
}

export function searchLibrary(db: DeskDb, request: SearchRequest): SearchView {
  const terms = parseSearch(request.text);
  const match = matchExpression(terms);
  if (match === null) return { hits: [], count: 0, countCapped: false, terms: [] };
  const handle = request.handle?.toLowerCase();
  const byHandle = handle !== undefined;
  const candidates = byHandle
    ? `SELECT f.rowid AS key, bm25(snapshot_search) AS score FROM snapshot_search f
       JOIN snapshots s ON s.text_id = f.rowid
       WHERE snapshot_search MATCH @match AND s.handle = @handle ORDER BY f.rowid DESC LIMIT @candidates`
    : `SELECT rowid AS key, bm25(snapshot_search) AS score FROM snapshot_search
       WHERE snapshot_search MATCH @match ORDER BY rowid DESC LIMIT @candidates`;
  const params = { match, candidates: CANDIDATES, ...(byHandle ? { handle } : {}) };
  const rows = db
    .prepare<Record<string, string | number>, ItemRow & { raw_json: string }>(
      // The page is cut from the ranked keys before any report is read: only its rows' JSON is loaded.
      `WITH ranked AS (${candidates}),
         page AS (SELECT key, score FROM ranked ORDER BY score, key DESC LIMIT @limit OFFSET @offset)
       SELECT ${ITEM_COLUMNS}, s.raw_json FROM page r JOIN snapshots s ON s.text_id = r.key ${NAMES_JOIN}
       ORDER BY r.score, r.key DESC`,
    )
    .all({ ...params, limit: request.limit, offset: request.offset });
  const counted = db
    .prepare<Record<string, string | number>, { n: number }>(
      byHandle
        ? `SELECT COUNT(*) AS n FROM (SELECT 1 FROM snapshot_search f JOIN snapshots s ON s.text_id = f.rowid
             WHERE snapshot_search MATCH @match AND s.handle = @handle LIMIT @cap)`
        : `SELECT COUNT(*) AS n FROM (SELECT 1 FROM snapshot_search WHERE snapshot_search MATCH @match LIMIT @cap)`,
    )
    .get({ match, cap: COUNT_LIMIT + 1, ...(byHandle ? { handle } : {}) });
  const count = counted?.n ?? 0;
  const hits: SearchHit[] = rows.map((row) => ({
    ...toItem(row),
    snippet: snippetOf(textOf(row.raw_json), terms),
  }));
  return {
    hits,
    count: Math.min(count, COUNT_LIMIT),
    countCapped: count > COUNT_LIMIT,
    terms: describeTerms(terms),
  };
}
