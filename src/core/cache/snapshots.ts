/** The offline library: every purchased snapshot, byte-for-byte, with indexed columns and full-text search. */
import type { IntelReportSnapshot, DateRange } from '../../shared/wire';
import type { LibraryItem, SearchHit } from '../../shared/rpc';
import type { DeskDb } from '../db/open';
import type { DeskEvents } from '../events';

interface SnapshotRow {
  service_url: string;
  id: string;
  handle: string;
  created_at: string;
  model: string;
  post_count: number | null;
  range_from: string | null;
  range_to: string | null;
  stored_at: string;
}

export interface StoredSnapshot {
  snapshot: IntelReportSnapshot;
  raw: string;
}

/** Text worth searching: every string inside the narrative and the change summary, in document order. */
/**
 * Every string of the narrative and change summary, in document order. Iterative: a paid snapshot nested
 * thousands of levels deep must still be stored and indexed, never overflow the stack after payment.
 */
export function searchableText(snapshot: IntelReportSnapshot): string {
  const parts: string[] = [];
  const pending: unknown[] = [snapshot.changeSummary, snapshot.narrative];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) pending.push(value[i]);
    else if (value && typeof value === 'object') pending.push(...Object.values(value).reverse());
  }
  return parts.join('\n');
}

/** User text to an FTS5 query: each word a quoted prefix term, all required; no FTS syntax gets through. */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  if (words.length === 0) return null;
  return words
    .slice(0, 12)
    .map((word) => `"${word}"*`)
    .join(' ');
}

function toItem(row: SnapshotRow): LibraryItem {
  const dateRange: DateRange | null =
    row.range_from !== null && row.range_to !== null ? { from: row.range_from, to: row.range_to } : null;
  return {
    id: row.id,
    serviceUrl: row.service_url,
    handle: row.handle,
    createdAt: row.created_at,
    model: row.model,
    postCount: row.post_count,
    dateRange,
    purchasedAt: row.stored_at,
  };
}

const ITEM_COLUMNS =
  'service_url, id, handle, created_at, model, post_count, range_from, range_to, stored_at';

export class SnapshotStore {
  constructor(
    private readonly db: DeskDb,
    private readonly events: DeskEvents | null = null,
  ) {}

  /**
   * Call inside the caller's transaction: a purchase's snapshots land together with its completion. A report
   * is the service's: the same id from another service is another report and is kept beside it.
   */
  put(
    serviceUrl: string,
    handle: string,
    entries: StoredSnapshot[],
    purchaseId: string | null,
    storedAt: string,
  ): void {
    const upsert = this.db.prepare(
      `INSERT INTO snapshots (service_url, id, handle, created_at, model, post_count, range_from, range_to, raw_json, purchase_id, stored_at)
       VALUES (@serviceUrl, @id, @handle, @createdAt, @model, @postCount, @from, @to, @raw, @purchaseId, @storedAt)
       ON CONFLICT(service_url, id) DO UPDATE SET raw_json = excluded.raw_json, model = excluded.model,
         created_at = excluded.created_at, post_count = excluded.post_count, range_from = excluded.range_from,
         range_to = excluded.range_to`,
    );
    const textIdOf = this.db.prepare<[string, string], { text_id: number | null }>(
      'SELECT text_id FROM snapshots WHERE service_url = ? AND id = ?',
    );
    const removeText = this.db.prepare('DELETE FROM snapshot_fts WHERE rowid = ?');
    const addText = this.db.prepare('INSERT INTO snapshot_fts (rowid, body) VALUES (?, ?)');
    const newText = this.db.prepare('INSERT INTO snapshot_fts (body) VALUES (?)');
    const linkText = this.db.prepare('UPDATE snapshots SET text_id = ? WHERE service_url = ? AND id = ?');
    for (const { snapshot, raw } of entries) {
      const range = snapshot.meta.dateRange ?? null;
      upsert.run({
        serviceUrl,
        id: snapshot.id,
        handle: handle.toLowerCase(),
        createdAt: snapshot.createdAt,
        model: snapshot.model,
        postCount: snapshot.meta.postCount ?? null,
        from: range?.from ?? null,
        to: range?.to ?? null,
        raw,
        purchaseId,
        storedAt,
      });
      const body = searchableText(snapshot);
      const textId = textIdOf.get(serviceUrl, snapshot.id)?.text_id ?? null;
      if (textId === null) {
        linkText.run(newText.run(body).lastInsertRowid, serviceUrl, snapshot.id);
      } else {
        removeText.run(textId);
        addText.run(textId, body);
      }
    }
    if (entries.length > 0) this.events?.changed('library.changed');
  }

  /** Ids of the handle's reports owned from this service; another service's reports are not these. */
  ownedIds(serviceUrl: string, handle: string): Set<string> {
    const rows = this.db
      .prepare<[string, string], { id: string }>(
        'SELECT id FROM snapshots WHERE service_url = ? AND handle = ?',
      )
      .all(serviceUrl, handle.toLowerCase());
    return new Set(rows.map((row) => row.id));
  }

  list(handle?: string): LibraryItem[] {
    const rows = handle
      ? this.db
          .prepare<[string], SnapshotRow>(
            `SELECT ${ITEM_COLUMNS} FROM snapshots WHERE handle = ? ORDER BY created_at DESC`,
          )
          .all(handle.toLowerCase())
      : this.db
          .prepare<[], SnapshotRow>(`SELECT ${ITEM_COLUMNS} FROM snapshots ORDER BY created_at DESC`)
          .all();
    return rows.map(toItem);
  }

  search(text: string, limit = 50): SearchHit[] {
    const query = ftsQuery(text);
    if (!query) return [];
    const rows = this.db
      .prepare<[string, number], SnapshotRow & { snippet: string }>(
        `SELECT s.service_url, s.id, s.handle, s.created_at, s.model, s.post_count, s.range_from, s.range_to, s.stored_at,
                snippet(snapshot_fts, 0, char(1), char(2), '…', 16) AS snippet
         FROM snapshot_fts JOIN snapshots s ON s.text_id = snapshot_fts.rowid
         WHERE snapshot_fts MATCH ? ORDER BY rank LIMIT ?`,
      )
      .all(query, limit);
    return rows.map((row) => ({ ...toItem(row), snippet: row.snippet }));
  }

  /**
   * One stored report. Without a service, the id is looked up across services, preferring `preferred` (the
   * service now selected) and then the most recently stored copy.
   */
  raw(
    id: string,
    serviceUrl: string | null,
    preferred: string,
  ): { raw: string; handle: string; serviceUrl: string } | undefined {
    if (serviceUrl !== null) {
      return this.db
        .prepare<[string, string], { raw: string; handle: string; serviceUrl: string }>(
          'SELECT raw_json AS raw, handle, service_url AS serviceUrl FROM snapshots WHERE service_url = ? AND id = ?',
        )
        .get(serviceUrl, id);
    }
    return this.db
      .prepare<[string, string], { raw: string; handle: string; serviceUrl: string }>(
        `SELECT raw_json AS raw, handle, service_url AS serviceUrl FROM snapshots WHERE id = ?
         ORDER BY service_url = ? DESC, stored_at DESC LIMIT 1`,
      )
      .get(id, preferred);
  }

  timeline(serviceUrl: string, handle: string): { id: string; createdAt: string; model: string }[] {
    return this.db
      .prepare<[string, string], { id: string; createdAt: string; model: string }>(
        `SELECT id, created_at AS createdAt, model FROM snapshots WHERE service_url = ? AND handle = ?
         ORDER BY created_at ASC`,
      )
      .all(serviceUrl, handle.toLowerCase());
  }

  /** The purchase that stored this copy, when one did (a copy from before the ledger kept it has none). */
  purchaseOf(serviceUrl: string, id: string): string | null {
    return (
      this.db
        .prepare<[string, string], { purchaseId: string | null }>(
          'SELECT purchase_id AS purchaseId FROM snapshots WHERE service_url = ? AND id = ?',
        )
        .get(serviceUrl, id)?.purchaseId ?? null
    );
  }
}
