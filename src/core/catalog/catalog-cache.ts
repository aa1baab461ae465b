/** Last-known shelf and menus per service, so the app opens and browses offline. */
import type { DeskDb } from '../db/open';
import { handleKey } from '../../shared/handle-key';

export class CatalogCache {
  constructor(private readonly db: DeskDb) {}

  saveShelf(serviceUrl: string, body: unknown, fetchedAt: string): void {
    const json = JSON.stringify(body);
    this.db
      .transaction(() => {
        this.db
          .prepare('INSERT OR REPLACE INTO shelf_cache (service_url, body_json, fetched_at) VALUES (?, ?, ?)')
          .run(serviceUrl, json, fetchedAt);
        this.db.prepare('DELETE FROM shelf_checks WHERE service_url = ?').run(serviceUrl);
      })
      .immediate();
  }

  /**
   * The saved shelf is still the service's: only the time it was last confirmed changes, in its own small
   * row (rewriting the shelf's row for it cost a 22 MB write at 100k handles).
   */
  touchShelf(serviceUrl: string, fetchedAt: string): void {
    this.db
      .prepare('INSERT OR REPLACE INTO shelf_checks (service_url, checked_at) VALUES (?, ?)')
      .run(serviceUrl, fetchedAt);
  }

  loadShelf(serviceUrl: string): { json: string; fetchedAt: string } | undefined {
    return this.db
      .prepare<[string], { json: string; fetchedAt: string }>(
        `SELECT s.body_json AS json, COALESCE(c.checked_at, s.fetched_at) AS fetchedAt
         FROM shelf_cache s LEFT JOIN shelf_checks c ON c.service_url = s.service_url
         WHERE s.service_url = ?`,
      )
      .get(serviceUrl);
  }

  saveMenu(serviceUrl: string, handle: string, body: unknown, fetchedAt: string): void {
    this.db
      .prepare(
        'INSERT OR REPLACE INTO menu_cache (service_url, handle, body_json, fetched_at) VALUES (?, ?, ?, ?)',
      )
      .run(serviceUrl, handleKey(handle), JSON.stringify(body), fetchedAt);
  }

  loadMenu(serviceUrl: string, handle: string): { json: string; fetchedAt: string } | undefined {
    return this.db
      .prepare<[string, string], { json: string; fetchedAt: string }>(
        'SELECT body_json AS json, fetched_at AS fetchedAt FROM menu_cache WHERE service_url = ? AND handle = ?',
      )
      .get(serviceUrl, handleKey(handle));
  }

  /** The handle whose cached menu lists this report, so a report not owned can be named with its buy. */
  handleOfReport(serviceUrl: string, id: string): string | null {
    const row = this.db
      .prepare<[string, string], { handle: string }>(
        `SELECT json_extract(m.body_json, '$.username') AS handle
         FROM menu_cache m, json_each(m.body_json, '$.reports') r
         WHERE m.service_url = ? AND json_valid(m.body_json) AND json_extract(r.value, '$.id') = ?
         LIMIT 1`,
      )
      .get(serviceUrl, id);
    return typeof row?.handle === 'string' ? row.handle : null;
  }

  /**
   * The display name the cached shelf gives a handle: for a handle bought since the shelf was last fetched,
   * whose name handle_names does not hold yet.
   */
  displayNameOf(serviceUrl: string, handle: string): string | null {
    const row = this.db
      .prepare<[string, string], { name: unknown }>(
        `SELECT json_extract(e.value, '$.displayName') AS name
         FROM shelf_cache s, json_each(s.body_json, '$.entries') e
         WHERE s.service_url = ? AND json_valid(s.body_json)
           AND lower(json_extract(e.value, '$.username')) = ?
         LIMIT 1`,
      )
      .get(serviceUrl, handleKey(handle));
    return typeof row?.name === 'string' && row.name.trim() !== '' ? row.name : null;
  }
}
