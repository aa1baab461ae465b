/** Handles, their dossier (profile, posts, edges) and their reports in the service store. */
import type { Bundle, IntelReportSnapshot, ReportMenuItem, ShelfEntry } from '../../shared/wire';
import { createHash } from 'node:crypto';
import type { ServiceDb } from './db';

/** Lower-cased, @-stripped: how handles are keyed (original-system-notes.md). */
export function handleKey(raw: string): string {
  return raw.trim().replace(/^@/, '').toLowerCase();
}

export const HANDLE_PATTERN = /^@?[A-Za-z0-9_]{1,64}$/;

export interface HandleRow {
  handle_key: string;
  username: string;
  display_name: string;
  avatar_url: string;
  followers: number;
  post_count: number;
  gathered_at: string;
  affiliation_label: string | null;
  affiliation_badge_url: string | null;
  profile_json: string | null;
  posts_json: string;
  edges_json: string;
}

interface ReportRow {
  id: string;
  created_at: string;
  model: string;
  post_count: number;
  range_from: string | null;
  range_to: string | null;
  body_json: string;
}

export interface RangeFilter {
  from?: string;
  to?: string;
  ids?: string[];
}

type ShelfRow = Pick<
  HandleRow,
  | 'username'
  | 'display_name'
  | 'avatar_url'
  | 'followers'
  | 'post_count'
  | 'gathered_at'
  | 'affiliation_label'
  | 'affiliation_badge_url'
> & { report_count: number };

/**
 * A body encoded once, with its strong ETag and response headers: a free route answers with what was made
 * before the request came, and a client that holds the same body gets 304 and no body.
 */
export interface EncodedBody {
  bytes: Buffer;
  etag: string;
  headers: Readonly<Record<string, string | number>>;
}

function encode(json: string, cacheControl: string): EncodedBody {
  const bytes = Buffer.from(json);
  const etag = `"${createHash('sha256').update(bytes).digest('base64url')}"`;
  return {
    bytes,
    etag,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': bytes.length,
      'Cache-Control': cacheControl,
      ETag: etag,
    },
  };
}

export class HandleStore {
  /**
   * The shelf body: with 100k handles building it takes about a second, so it is built once per write. Every
   * write goes through putBundle, which drops it and the menus.
   */
  private shelfBody: EncodedBody | null = null;
  /** Menus (GET /api/intel/reports without select), encoded once per handle until a write changes it. */
  private readonly menuBodies = new Map<string, EncodedBody>();

  constructor(private readonly db: ServiceDb) {}

  shelf(): ShelfEntry[] {
    const rows = this.db
      .prepare<[], ShelfRow>(
        `SELECT h.username, h.display_name, h.avatar_url, h.followers, h.post_count, h.gathered_at,
           h.affiliation_label, h.affiliation_badge_url,
           (SELECT COUNT(*) FROM reports r WHERE r.handle_key = h.handle_key) AS report_count
         FROM handles h ORDER BY h.gathered_at DESC, h.handle_key`,
      )
      .all();
    return rows.map((row) => ({
      username: row.username,
      displayName: row.display_name,
      avatarUrl: row.avatar_url,
      followers: row.followers,
      postCount: row.post_count,
      reportCount: row.report_count,
      gatheredAt: row.gathered_at,
      affiliationBadgeUrl: row.affiliation_badge_url,
      affiliationLabel: row.affiliation_label,
    }));
  }

  /** The body of GET /api/intel/list, encoded once per change of the store. */
  shelfEncoded(): EncodedBody {
    this.shelfBody ??= encode(
      JSON.stringify({ configured: true, entries: this.shelf() }),
      'public, max-age=30',
    );
    return this.shelfBody;
  }

  shelfJson(): string {
    return this.shelfEncoded().bytes.toString('utf8');
  }

  /** The menu body of a handle, or undefined when the store holds no such handle. */
  menuEncoded(key: string): EncodedBody | undefined {
    const cached = this.menuBodies.get(key);
    if (cached) return cached;
    const handle = this.find(key);
    if (!handle) return undefined;
    const reports = this.menu(key);
    // no-cache, not no-store: a client may keep the menu but asks again (with its ETag) before using it.
    const body = encode(
      JSON.stringify({ username: handle.username, reportCount: reports.length, reports }),
      'no-cache',
    );
    this.menuBodies.set(key, body);
    return body;
  }

  find(key: string): HandleRow | undefined {
    return this.db.prepare<[string], HandleRow>('SELECT * FROM handles WHERE handle_key = ?').get(key);
  }

  menu(key: string): ReportMenuItem[] {
    return this.db
      .prepare<[string], ReportRow>(
        'SELECT id, created_at, model, post_count, range_from, range_to FROM reports WHERE handle_key = ? ORDER BY created_at DESC, id DESC',
      )
      .all(key)
      .map((row) => ({
        id: row.id,
        createdAt: row.created_at,
        model: row.model,
        postCount: row.post_count,
        dateRange:
          row.range_from !== null && row.range_to !== null
            ? { from: row.range_from, to: row.range_to }
            : null,
      }));
  }

  /** Bounds are inclusive string comparisons on createdAt; ids and from/to all apply (intersection). */
  select(key: string, filter: RangeFilter | 'all'): string[] {
    const clauses = ['handle_key = ?'];
    const params: string[] = [key];
    if (filter !== 'all') {
      if (filter.from !== undefined) {
        clauses.push('created_at >= ?');
        params.push(filter.from);
      }
      if (filter.to !== undefined) {
        clauses.push('created_at <= ?');
        params.push(filter.to);
      }
      if (filter.ids !== undefined) {
        clauses.push(`id IN (${filter.ids.map(() => '?').join(',')})`);
        params.push(...filter.ids);
      }
    }
    return this.db
      .prepare<string[], { body_json: string }>(
        `SELECT body_json FROM reports WHERE ${clauses.join(' AND ')} ORDER BY created_at DESC, id DESC`,
      )
      .all(...params)
      .map((row) => row.body_json);
  }

  bundle(key: string): Bundle | undefined {
    const row = this.find(key);
    if (!row) return undefined;
    return {
      v: 1,
      username: row.username,
      profile: row.profile_json === null ? null : (JSON.parse(row.profile_json) as Record<string, unknown>),
      posts: JSON.parse(row.posts_json) as Record<string, unknown>[],
      edges: JSON.parse(row.edges_json) as Record<string, unknown>[],
      reportHistory: this.select(key, 'all').map((body) => JSON.parse(body) as IntelReportSnapshot),
      gatheredAt: row.gathered_at,
    };
  }

  /**
   * The original system's merge rule: a stored bundle at least as new as the incoming one wins and nothing is
   * written; otherwise the incoming corpus replaces it and report histories are unioned by id (incoming wins).
   */
  putBundle(incoming: Bundle): { written: boolean; bundle: Bundle } {
    const key = handleKey(incoming.username);
    const write = this.db.transaction((): boolean => {
      const stored = this.find(key);
      // Compared as instants, not strings: "…T13:00:00+02:00" is older than "…T12:00:00.000Z". The incoming string
      // is stored as sent, since editors compare it with what they saved.
      if (stored && Date.parse(stored.gathered_at) >= Date.parse(incoming.gatheredAt)) return false;
      const profile = incoming.profile;
      const text = (field: string): string | undefined => {
        const value = profile?.[field];
        return typeof value === 'string' ? value : undefined;
      };
      const number = (field: string): number | undefined => {
        const value = profile?.[field];
        return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
      };
      this.db
        .prepare(
          `INSERT INTO handles (handle_key, username, display_name, avatar_url, followers, post_count, gathered_at,
             affiliation_label, affiliation_badge_url, profile_json, posts_json, edges_json)
           VALUES (@key, @username, @displayName, @avatarUrl, @followers, @postCount, @gatheredAt,
             @affiliationLabel, @affiliationBadgeUrl, @profile, @posts, @edges)
           ON CONFLICT(handle_key) DO UPDATE SET username = excluded.username, display_name = excluded.display_name,
             avatar_url = excluded.avatar_url, followers = excluded.followers, post_count = excluded.post_count,
             gathered_at = excluded.gathered_at, affiliation_label = excluded.affiliation_label,
             affiliation_badge_url = excluded.affiliation_badge_url, profile_json = excluded.profile_json,
             posts_json = excluded.posts_json, edges_json = excluded.edges_json`,
        )
        .run({
          key,
          username: incoming.username.replace(/^@/, ''),
          displayName: text('displayName') ?? stored?.display_name ?? incoming.username,
          avatarUrl: text('avatarUrl') ?? stored?.avatar_url ?? '',
          followers: number('followers') ?? stored?.followers ?? 0,
          postCount: incoming.posts.length,
          gatheredAt: incoming.gatheredAt,
          affiliationLabel: text('affiliationLabel') ?? stored?.affiliation_label ?? null,
          affiliationBadgeUrl: text('affiliationBadgeUrl') ?? stored?.affiliation_badge_url ?? null,
          profile: profile === null ? null : JSON.stringify(profile),
          posts: JSON.stringify(incoming.posts),
          edges: JSON.stringify(incoming.edges),
        });
      const upsertReport = this.db.prepare(
        `INSERT INTO reports (id, handle_key, created_at, model, post_count, range_from, range_to, body_json)
         VALUES (@id, @key, @createdAt, @model, @postCount, @from, @to, @body)
         ON CONFLICT(id) DO UPDATE SET handle_key = excluded.handle_key, created_at = excluded.created_at,
           model = excluded.model, post_count = excluded.post_count, range_from = excluded.range_from,
           range_to = excluded.range_to, body_json = excluded.body_json`,
      );
      for (const report of incoming.reportHistory) upsertReport.run(reportParams(key, report));
      return true;
    });
    const written = write.immediate();
    if (written) {
      this.shelfBody = null;
      this.menuBodies.clear();
    }
    const bundle = this.bundle(key);
    if (!bundle) throw new Error(`bundle for ${key} vanished after PUT`);
    return { written, bundle };
  }
}

export function reportParams(
  key: string,
  report: IntelReportSnapshot,
): Record<string, string | number | null> {
  const range = report.meta.dateRange ?? null;
  return {
    id: report.id,
    key,
    createdAt: report.createdAt,
    model: report.model,
    postCount: report.meta.postCount ?? 0,
    from: range?.from ?? null,
    to: range?.to ?? null,
    body: JSON.stringify(report),
  };
}
