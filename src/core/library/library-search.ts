/**
 * The library searched with the query language (search-syntax.ts, compiled by search-compile.ts) at a bounded
 * cost at any size. The matches are counted first, up to RANKED. With words to rank by and at most RANKED
 * matches, all of them are ranked by bm25; with more, the most recently bought come first, because bm25
 * reads every doclist of the query's words in full to weigh them (5-15 ms for a common word at 100k reports)
 * and the best of a few thousand loose matches is no answer anyway: more words are. With qualifiers and
 * comparisons only, the newest reports come first. Snippets are made for the page only.
 */
import type { SearchHit, SearchView } from '../../shared/rpc';
import type { DeskDb } from '../db/open';
import { ITEM_COLUMNS, NAMES_JOIN, toItem, type ItemRow } from './library-page';
import { withLabels } from './report-labels';
import { compileSearch, describeQuery, type Expand } from './search-compile';
import { parseQuery } from './search-syntax';
import { textOfRaw } from './report-text';
import { snippetOf } from './snippet';
import { handleKey } from '../../shared/handle-key';

/**
 * Matches ranked by bm25, and counted: with more, the most recently bought come first and the count says
 * "more than" (docs/decisions). Counting further cost up to 5 ms for two common words at 100k reports.
 */
export const RANKED = 1_000;

export interface SearchRequest {
  text: string;
  handle?: string | undefined;
  limit: number;
  offset: number;
  /** As a person types in the app: a bare last word matches as a prefix. */
  prefixLast?: boolean | undefined;
}

type Params = Record<string, string | number | bigint>;

const whereOf = (conditions: string[]) => (conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '');

type SearchOrder = SearchView['order'];

/** How one query is answered: its capped count, then the page's rows in an order the count decides. */
interface SearchPlan {
  count: string;
  rows(count: number): { sql: string; order: SearchOrder };
}

/**
 * Only the page's rows are read from the reports, with the text of their snippets: what the index kept for a
 * large report (migration 11), else the report's JSON. The CASE reads the JSON only when nothing was kept, so a
 * 32 MB report costs its 16k characters, not its 32 MB.
 */
const pageRows = (page: string, order: string) =>
  `WITH page AS (${page})
   SELECT ${ITEM_COLUMNS}, k.snippet_text,
     CASE WHEN k.snippet_text IS NULL THEN s.raw_json END AS raw_json
   FROM page r JOIN snapshots s ON s.text_id = r.key ${NAMES_JOIN}
   LEFT JOIN snapshot_filters k ON k.text_id = r.key
   ORDER BY ${order}`;

/** Words to match: every match ranked by bm25 when they are few, else the most recently bought first. */
function wordsPlan(where: string[]): SearchPlan {
  // Without other conditions the index alone answers: no join until the page is cut.
  const from =
    where.length === 0
      ? 'FROM snapshot_search f WHERE snapshot_search MATCH @match'
      : `FROM snapshot_search f JOIN snapshot_filters s ON s.text_id = f.rowid
         WHERE snapshot_search MATCH @match AND ${where.join(' AND ')}`;
  return {
    count: `SELECT COUNT(*) AS n FROM (SELECT 1 ${from} LIMIT @cap)`,
    rows: (count) =>
      count <= RANKED
        ? {
            order: 'best',
            sql: pageRows(
              `SELECT f.rowid AS key, bm25(snapshot_search) AS score ${from} ORDER BY score, key DESC
               LIMIT @limit OFFSET @offset`,
              'r.score, r.key DESC',
            ),
          }
        : {
            // FTS5 gives the matches in this order without reading them all.
            order: 'bought',
            sql: pageRows(
              `SELECT f.rowid AS key ${from} ORDER BY f.rowid DESC LIMIT @limit OFFSET @offset`,
              'r.key DESC',
            ),
          },
  };
}

/**
 * Newest first, when nothing ranks: qualifiers, comparisons, or words only under NOT. The conditions are
 * judged on the narrow rows of snapshot_filters (migration 10) and only the page's rows are read: walking the
 * reports themselves read each one's JSON, 800 ms for a filter that matched nothing in 100k.
 */
function filteredPlan(where: string[]): SearchPlan {
  const from = `FROM snapshot_filters s ${whereOf(where)}`;
  const sql = pageRows(
    `SELECT s.text_id AS key, s.created_at ${from} ORDER BY s.created_at DESC, s.text_id DESC
     LIMIT @limit OFFSET @offset`,
    'r.created_at DESC, r.key DESC',
  );
  return {
    count: `SELECT COUNT(*) AS n FROM (SELECT 1 ${from} LIMIT @cap)`,
    rows: () => ({ sql, order: 'newest' }),
  };
}

export function searchLibrary(db: DeskDb, request: SearchRequest, expand?: Expand): SearchView {
  const tree = parseQuery(request.text, { prefixLast: request.prefixLast ?? false });
  const query = compileSearch(tree, expand);
  if (query === null) return { hits: [], count: 0, countCapped: false, order: 'newest', terms: [] };
  const where = [...query.where];
  const params: Params = { ...query.params };
  if (request.handle !== undefined) {
    where.push('s.handle = @handle');
    params['handle'] = handleKey(request.handle);
  }
  if (query.match !== null) params['match'] = query.match;
  const plan = query.match !== null ? wordsPlan(where) : filteredPlan(where);
  const count = db.prepare<Params, { n: number }>(plan.count).get({ ...params, cap: RANKED + 1 })?.n ?? 0;
  const { sql, order } = plan.rows(count);
  const rows = db
    .prepare<Params, ItemRow & { snippet_text: string | null; raw_json: string | null }>(sql)
    .all({ ...params, limit: request.limit, offset: request.offset });
  const items = withLabels(db, rows.map(toItem));
  const hits: SearchHit[] = items.map((item, i) => {
    const row = rows[i]!;
    const text = row.snippet_text ?? textOfRaw(row.raw_json ?? '');
    return { ...item, snippet: snippetOf(text, query.terms) };
  });
  return {
    hits,
    count: Math.min(count, RANKED),
    countCapped: count > RANKED,
    order,
    terms: describeQuery(tree),
  };
}
