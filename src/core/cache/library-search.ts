/**
 * The library searched with the query language (search-syntax.ts, compiled by search-compile.ts) at a bounded
 * cost at any size. With words to rank by, the newest CANDIDATES matches are ranked by bm25 and the page asked
 * for is returned; with qualifiers and comparisons only, the newest matching reports come first. Snippets are
 * made for the page only; the count stops at COUNT_LIMIT.
 */
import type { SearchHit, SearchView } from '../../shared/rpc';
import type { IntelReportSnapshot } from '../../shared/wire';
import type { DeskDb } from '../db/open';
import { ITEM_COLUMNS, NAMES_JOIN, toItem, type ItemRow } from './library-page';
import { withLabels } from './report-labels';
import { compileSearch, describeQuery, type CompiledSearch } from './search-compile';
import { parseQuery } from './search-syntax';
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
  /** As a person types in the app: a bare last word matches as a prefix. */
  prefixLast?: boolean | undefined;
}

type Params = Record<string, string | number>;

function textOf(raw: string): string {
  try {
    return searchableText(JSON.parse(raw) as IntelReportSnapshot);
  } catch {
    return '';
  }
}

const whereOf = (conditions: string[]) => (conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '');

/** Keys of the page (best first) and the capped count, when words rank the matches. */
function rankedQueries(query: CompiledSearch, where: string[]): { rows: string; count: string } {
  // Without other conditions the index alone answers: no join with the reports until the page is cut.
  const candidates =
    where.length === 0
      ? `SELECT rowid AS key, bm25(snapshot_search) AS score FROM snapshot_search
         WHERE snapshot_search MATCH @match ORDER BY rowid DESC LIMIT @candidates`
      : `SELECT f.rowid AS key, bm25(snapshot_search) AS score FROM snapshot_search f
         JOIN snapshot_filters s ON s.text_id = f.rowid
         WHERE snapshot_search MATCH @match AND ${where.join(' AND ')} ORDER BY f.rowid DESC LIMIT @candidates`;
  return {
    // The page is cut from the ranked keys before any report is read: only its rows' JSON is loaded.
    rows: `WITH ranked AS (${candidates}),
         page AS (SELECT key, score FROM ranked ORDER BY score, key DESC LIMIT @limit OFFSET @offset)
       SELECT ${ITEM_COLUMNS}, s.raw_json FROM page r JOIN snapshots s ON s.text_id = r.key ${NAMES_JOIN}
       ORDER BY r.score, r.key DESC`,
    count:
      where.length === 0
        ? `SELECT COUNT(*) AS n FROM (SELECT 1 FROM snapshot_search WHERE snapshot_search MATCH @match LIMIT @cap)`
        : `SELECT COUNT(*) AS n FROM (SELECT 1 FROM snapshot_search f JOIN snapshot_filters s ON s.text_id = f.rowid
             WHERE snapshot_search MATCH @match AND ${where.join(' AND ')} LIMIT @cap)`,
  };
}

/**
 * Newest first, when nothing ranks: qualifiers, comparisons, or words only under NOT. The conditions are
 * judged on the narrow rows of snapshot_filters (migration 10) and only the page's rows are read: walking the
 * reports themselves read each one's JSON, 800 ms for a filter that matched nothing in 100k.
 */
function filteredQueries(where: string[]): { rows: string; count: string } {
  const from = `FROM snapshot_filters s ${whereOf(where)}`;
  return {
    rows: `WITH page AS (SELECT s.text_id AS key, s.created_at ${from}
         ORDER BY s.created_at DESC, s.text_id DESC LIMIT @limit OFFSET @offset)
       SELECT ${ITEM_COLUMNS}, s.raw_json FROM page r JOIN snapshots s ON s.text_id = r.key ${NAMES_JOIN}
       ORDER BY r.created_at DESC, r.key DESC`,
    count: `SELECT COUNT(*) AS n FROM (SELECT 1 ${from} LIMIT @cap)`,
  };
}

export function searchLibrary(db: DeskDb, request: SearchRequest): SearchView {
  const tree = parseQuery(request.text, { prefixLast: request.prefixLast ?? false });
  const query = compileSearch(tree);
  if (query === null) return { hits: [], count: 0, countCapped: false, terms: [] };
  const where = [...query.where];
  const params: Params = { ...query.params };
  if (request.handle !== undefined) {
    where.push('s.handle = @handle');
    params['handle'] = request.handle.toLowerCase();
  }
  if (query.match !== null) Object.assign(params, { match: query.match, candidates: CANDIDATES });
  const sql = query.match !== null ? rankedQueries(query, where) : filteredQueries(where);
  const rows = db
    .prepare<Params, ItemRow & { raw_json: string }>(sql.rows)
    .all({ ...params, limit: request.limit, offset: request.offset });
  const count = db.prepare<Params, { n: number }>(sql.count).get({ ...params, cap: COUNT_LIMIT + 1 })?.n ?? 0;
  const items = withLabels(db, rows.map(toItem));
  const hits: SearchHit[] = items.map((item, i) => ({
    ...item,
    snippet: snippetOf(textOf(rows[i]!.raw_json), query.terms),
  }));
  return {
    hits,
    count: Math.min(count, COUNT_LIMIT),
    countCapped: count > COUNT_LIMIT,
    terms: describeQuery(tree),
  };
}
