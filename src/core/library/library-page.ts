/**
 * The library a page at a time: keyset paging over an index per sort column, so the 1,000th page costs what
 * the first does, and a report stored meanwhile never shifts or repeats the rows of the pages still to come.
 * A page can also be asked for by its offset, for a view that jumps (End, the scrollbar dragged to the
 * bottom): the index's keys are counted past, not the reports (about 10 ms past 100k).
 */
import { z } from 'zod';
import type { DateRange } from '../../shared/wire';
import type { LibraryItem, LibraryPage, LibrarySort } from '../../shared/rpc';
import type { DeskDb } from '../db/open';
import { DeskError } from '../base/errors';
import { withLabels } from './report-labels';
import { handleKey } from '../../shared/handle-key';

export interface PageRequest {
  handle?: string | undefined;
  sort?: LibrarySort | undefined;
  order?: 'asc' | 'desc' | undefined;
  limit: number;
  cursor?: string | undefined;
  /** Rows to skip, instead of a cursor. */
  offset?: number | undefined;
}

export interface ItemRow {
  key: number;
  service_url: string;
  id: string;
  handle: string;
  username: string;
  display_name: string | null;
  created_at: string;
  model: string;
  post_count: number | null;
  range_from: string | null;
  range_to: string | null;
  stored_at: string;
  spent_atomic: number;
  team_analyst: string | null;
  team_desk_id: string | null;
}

/** Columns of an item; `s` is snapshots, `n` the handle's display name, `t` who in the team bought it. */
export const ITEM_COLUMNS = `s.text_id AS key, s.service_url, s.id, s.handle, s.username, n.display_name,
  s.created_at, s.model, s.post_count, s.range_from, s.range_to, s.stored_at, s.spent_atomic,
  t.analyst AS team_analyst, t.desk_id AS team_desk_id`;
/**
 * The handle's name, and the team's purchase of a report this desk did not buy itself (its own purchases come
 * back from the team too, and stay its own).
 */
export const NAMES_JOIN = `LEFT JOIN handle_names n ON n.service_url = s.service_url AND n.handle = s.handle
  LEFT JOIN team_reports t ON s.purchase_id IS NULL AND t.service_url = s.service_url AND t.id = s.id`;

export function toItem(row: ItemRow): Omit<LibraryItem, 'tags' | 'note'> {
  const dateRange: DateRange | null =
    row.range_from !== null && row.range_to !== null ? { from: row.range_from, to: row.range_to } : null;
  return {
    id: row.id,
    serviceUrl: row.service_url,
    handle: row.handle,
    username: row.username,
    displayName: row.display_name,
    createdAt: row.created_at,
    model: row.model,
    postCount: row.post_count,
    dateRange,
    purchasedAt: row.stored_at,
    // One report's share: an integer of base units, at most a purchase's million USD, exact as a number.
    spentUnits: String(row.spent_atomic),
    boughtBy:
      row.team_analyst !== null && row.team_desk_id !== null
        ? { analyst: row.team_analyst, deskId: row.team_desk_id }
        : null,
  };
}

/** The sort key of each sort, most significant first; the row's key (text_id) always breaks ties. */
const SORT_COLUMNS: Record<LibrarySort, readonly (keyof ItemRow & string)[]> = {
  date: ['created_at'],
  handle: ['handle', 'created_at'],
  purchased: ['stored_at'],
  spent: ['spent_atomic'],
};
const DEFAULT_ORDER: Record<LibrarySort, 'asc' | 'desc'> = {
  date: 'desc',
  handle: 'asc',
  purchased: 'desc',
  spent: 'desc',
};

const cursorSchema = z.tuple([
  z.string(),
  z
    .array(z.union([z.string(), z.number()]))
    .min(2)
    .max(3),
]);

function encodeCursor(sort: LibrarySort, values: (string | number)[]): string {
  return Buffer.from(JSON.stringify([sort, values])).toString('base64url');
}

function decodeCursor(cursor: string, sort: LibrarySort): (string | number)[] {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const checked = cursorSchema.safeParse(parsed);
  if (
    !checked.success ||
    checked.data[0] !== sort ||
    checked.data[1].length !== SORT_COLUMNS[sort].length + 1
  )
    throw new DeskError(
      'library_cursor_invalid',
      'That library page no longer fits the list as sorted; start again from the first page.',
      'usage',
    );
  return checked.data[1];
}

/**
 * Where a sort's keys are read: the date order of the whole library is kept in snapshot_filters (written just
 * after a purchase commits); every other order, and one handle's reports, by an index on the reports.
 */
const keysFrom = (sort: LibrarySort, handle: string | undefined) =>
  sort === 'date' && !handle ? 'snapshot_filters' : 'snapshots';

export function libraryPage(db: DeskDb, request: PageRequest): LibraryPage {
  const sort = request.sort ?? 'date';
  const order = request.order ?? DEFAULT_ORDER[sort];
  const columns = [...SORT_COLUMNS[sort].map((column) => `s.${column}`), 's.text_id'];
  const filter: string[] = [];
  const params: (string | number)[] = [];
  if (request.handle) {
    filter.push('s.handle = ?');
    params.push(handleKey(request.handle));
  }
  const totals = db
    .prepare<(string | number)[], { n: number; spent: string }>(
      // The sum as text: exact whatever it grows to, where TOTAL() is a float.
      `SELECT COUNT(*) AS n, CAST(COALESCE(SUM(s.spent_atomic), 0) AS TEXT) AS spent FROM snapshots s
       ${filter.length > 0 ? `WHERE ${filter.join(' AND ')}` : ''}`,
    )
    .get(...params) ?? { n: 0, spent: '0' };
  const where = [...filter];
  const pageParams = [...params];
  if (request.cursor !== undefined) {
    // A row value comparison: SQLite walks the index from the cursor instead of counting past an offset.
    where.push(
      `(${columns.join(', ')}) ${order === 'desc' ? '<' : '>'} (${columns.map(() => '?').join(', ')})`,
    );
    pageParams.push(...decodeCursor(request.cursor, sort));
  }
  const direction = order === 'desc' ? 'DESC' : 'ASC';
  const orderBy = (table: string) =>
    columns.map((column) => `${column.replace('s.', `${table}.`)} ${direction}`).join(', ');
  // The page's keys first, from an index alone; only its rows are read.
  const rows = db
    .prepare<(string | number)[], ItemRow>(
      `WITH page AS (SELECT ${columns.join(', ')} FROM ${keysFrom(sort, request.handle)} s
         ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${orderBy('s')} LIMIT ? OFFSET ?)
       SELECT ${ITEM_COLUMNS} FROM page p JOIN snapshots s ON s.text_id = p.text_id ${NAMES_JOIN}
       ORDER BY ${orderBy('p')}`,
    )
    .all(...pageParams, request.limit + 1, request.offset ?? 0);
  const more = rows.length > request.limit;
  const shown = more ? rows.slice(0, request.limit) : rows;
  const last = shown.at(-1);
  return {
    items: withLabels(db, shown.map(toItem)),
    total: totals.n,
    totalSpentUnits: totals.spent,
    nextCursor:
      more && last
        ? encodeCursor(sort, [
            ...SORT_COLUMNS[sort].map((column) => last[column] as string | number),
            last.key,
          ])
        : null,
  };
}

/** Everything (or one handle's reports), newest first: for the CLI and callers that want the whole list. */
export function listAll(db: DeskDb, handle?: string): LibraryItem[] {
  const rows = handle
    ? db
        .prepare<[string], ItemRow>(
          `SELECT ${ITEM_COLUMNS} FROM snapshots s ${NAMES_JOIN} WHERE s.handle = ?
           ORDER BY s.created_at DESC, s.text_id DESC`,
        )
        .all(handleKey(handle))
    : db
        .prepare<[], ItemRow>(
          `SELECT ${ITEM_COLUMNS} FROM snapshot_filters f JOIN snapshots s ON s.text_id = f.text_id ${NAMES_JOIN}
           ORDER BY f.created_at DESC, f.text_id DESC`,
        )
        .all();
  return withLabels(db, rows.map(toItem));
}
