/**
 * The interop peer's data: three handles with a few reports each, fixed, so tests can name ids, dates and counts.
 * Selection follows the reference service's rules: handles are matched lower-cased without a leading @, `from`
 * and `to` are inclusive bounds on `createdAt` compared as strings, and ids, from and to all apply together.
 */
import { z } from 'zod';
import type {
  IntelReportSnapshot,
  ReportMenu,
  ReportSelect,
  ShelfEntry,
  ShelfList,
} from '../../src/shared/wire';

interface PeerHandle {
  username: string;
  displayName: string;
  followers: number;
  /** Reports, newest first. */
  reports: IntelReportSnapshot[];
}

function report(username: string, index: number, count: number): IntelReportSnapshot {
  // Report 1 is the oldest; one a week from 2026-01-05, each covering the week before it.
  const created = new Date(Date.UTC(2026, 0, 5 + 7 * (index - 1), 12, 0, 0));
  const from = new Date(created.getTime() - 7 * 86_400_000).toISOString().slice(0, 10);
  const to = created.toISOString().slice(0, 10);
  const postCount = 20 + 5 * index;
  return {
    id: `${username}-r${index}`,
    createdAt: created.toISOString(),
    model: 'interop-model-1',
    synthesisSettings: { temperature: 0, maxPosts: 200 },
    meta: {
      postCount,
      dateRange: { from, to },
      postIdsAnalyzed: Array.from({ length: 3 }, (_, i) => `${username}-p${index}-${i + 1}`),
    },
    analytics: { postsPerDay: postCount / 7, topTopics: ['interop', `week-${index}`] },
    narrative: {
      summary: `Week ${index} of ${count} for @${username}: steady activity around interop testing.`,
      themes: ['x402', 'payments'],
    },
    changeSummary:
      index === 1 ? null : { since: `${username}-r${index - 1}`, text: 'More posts than before.' },
    previousReportId: index === 1 ? null : `${username}-r${index - 1}`,
  };
}

function handle(username: string, displayName: string, followers: number, count: number): PeerHandle {
  const reports = Array.from({ length: count }, (_, i) => report(username, i + 1, count)).reverse();
  return { username, displayName, followers, reports };
}

/** The peer's handles: alice_intel (3 reports), bob_osint (4), carol_watch (6). */
export const PEER_HANDLES: readonly PeerHandle[] = [
  handle('alice_intel', 'Alice Intel', 1200, 3),
  handle('bob_osint', 'Bob OSINT', 560, 4),
  handle('carol_watch', 'Carol Watch', 98_000, 6),
];

const HANDLE_PATTERN = /^@?[A-Za-z0-9_]{1,64}$/;

function findHandle(raw: string): PeerHandle | undefined {
  const key = raw.trim().replace(/^@/, '').toLowerCase();
  return PEER_HANDLES.find((h) => h.username === key);
}

export function peerShelf(): ShelfList {
  const entries: ShelfEntry[] = PEER_HANDLES.map((h) => ({
    username: h.username,
    displayName: h.displayName,
    followers: h.followers,
    reportCount: h.reports.length,
    postCount: h.reports.reduce((sum, r) => sum + (r.meta.postCount ?? 0), 0),
    gatheredAt: h.reports[0]?.createdAt ?? '2026-01-01T00:00:00.000Z',
  }));
  return { configured: true, entries };
}

/** What a rejected request answers, before any payment is asked for. */
export interface PeerRefusal {
  kind: 'refused';
  status: 400 | 404;
  error: string;
  message: string;
}

/** A paid request's selection, already checked: it matches at least one report. */
export interface PeerSelection {
  username: string;
  select: ReportSelect;
  reports: IntelReportSnapshot[];
}

const queryValue = z.union([z.string(), z.array(z.string()).transform((values) => values[0] ?? '')]);
const reportsQuerySchema = z.looseObject({
  username: queryValue.optional(),
  select: queryValue.optional(),
  from: queryValue.optional(),
  to: queryValue.optional(),
  ids: queryValue.optional(),
});

const refuse = (status: 400 | 404, error: string, message: string): PeerRefusal => ({
  kind: 'refused',
  status,
  error,
  message,
});

/**
 * Reads `GET /api/intel/reports`'s query (outside input): the free menu when there is no `select`, the paid
 * selection when it matches, or the refusal to answer with.
 */
export function readReportsQuery(
  query: unknown,
): { kind: 'menu'; menu: ReportMenu } | { kind: 'paid'; selection: PeerSelection } | PeerRefusal {
  const parsed = reportsQuerySchema.safeParse(query);
  if (!parsed.success) return refuse(400, 'invalid_query', 'the query string is malformed');
  const { username, select, from, to, ids } = parsed.data;
  if (username === undefined || username.trim() === '')
    return refuse(400, 'missing_username', 'the username parameter is required');
  if (!HANDLE_PATTERN.test(username.trim()))
    return refuse(400, 'invalid_username', 'username must be 1-64 letters, digits or underscores');
  const found = findHandle(username);
  if (select === undefined) {
    if (!found) return refuse(404, 'unknown_handle', `no shared reports are held for ${username}`);
    const reports = found.reports.map((r) => ({
      id: r.id,
      createdAt: r.createdAt,
      model: r.model,
      postCount: r.meta.postCount ?? 0,
      dateRange: r.meta.dateRange ?? null,
    }));
    return { kind: 'menu', menu: { username: found.username, reportCount: reports.length, reports } };
  }
  if (select !== 'all' && select !== 'range')
    return refuse(400, 'invalid_select', 'select must be "all" or "range"');
  const idList = (ids ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
  const fromBound = from === '' ? undefined : from;
  const toBound = to === '' ? undefined : to;
  if (select === 'range' && fromBound === undefined && toBound === undefined && idList.length === 0)
    return refuse(400, 'range_requires_from_to_or_ids', 'select=range needs from, to or ids');
  if (!found) return refuse(404, 'unknown_handle', `no shared reports are held for ${username}`);
  const reports =
    select === 'all'
      ? found.reports
      : found.reports.filter(
          (r) =>
            (fromBound === undefined || r.createdAt >= fromBound) &&
            (toBound === undefined || r.createdAt <= toBound) &&
            (idList.length === 0 || idList.includes(r.id)),
        );
  if (reports.length === 0) return refuse(404, 'no_matching_reports', 'no report matches the filters');
  return { kind: 'paid', selection: { username: found.username, select, reports } };
}
