/** The Library's saved searches: a name and a query, checked by the parser before it is kept. */
import type { SavedSearch } from '../../shared/rpc';
import type { DeskDb } from '../db/open';
import { DeskError } from '../base/errors';
import { parseQuery } from './search-syntax';

interface Row {
  id: number;
  name: string;
  query: string;
  createdAt: string;
  updatedAt: string;
}
const COLUMNS = 'id, name, query, created_at AS createdAt, updated_at AS updatedAt';

export class SavedSearchStore {
  constructor(
    private readonly db: DeskDb,
    private readonly now: () => Date,
  ) {}

  list(): SavedSearch[] {
    return this.db
      .prepare<[], Row>(`SELECT ${COLUMNS} FROM saved_searches ORDER BY name COLLATE NOCASE, id`)
      .all();
  }

  private byId(id: number): SavedSearch {
    const row = this.db.prepare<[number], Row>(`SELECT ${COLUMNS} FROM saved_searches WHERE id = ?`).get(id);
    if (!row) throw new DeskError('saved_search_not_found', 'That saved search no longer exists.', 'usage');
    return row;
  }

  /** Saving under a name already used replaces that search's query. */
  save(name: string, query: string): SavedSearch {
    const trimmed = name.trim();
    if (parseQuery(query) === null)
      throw new DeskError('saved_search_empty', 'Type a search before saving it.', 'usage');
    const at = this.now().toISOString();
    const row = this.db
      .prepare<[string, string, string, string], { id: number }>(
        `INSERT INTO saved_searches (name, query, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET query = excluded.query, updated_at = excluded.updated_at
         RETURNING id`,
      )
      .get(trimmed, query.trim(), at, at);
    return this.byId(row!.id);
  }

  rename(id: number, name: string): SavedSearch {
    const trimmed = name.trim();
    const clash = this.db
      .prepare<[string, number], { id: number }>('SELECT id FROM saved_searches WHERE name = ? AND id <> ?')
      .get(trimmed, id);
    if (clash)
      throw new DeskError(
        'saved_search_name_taken',
        `A saved search is already named "${trimmed}".`,
        'usage',
      );
    this.byId(id);
    this.db
      .prepare('UPDATE saved_searches SET name = ?, updated_at = ? WHERE id = ?')
      .run(trimmed, this.now().toISOString(), id);
    return this.byId(id);
  }

  delete(id: number): boolean {
    return this.db.prepare('DELETE FROM saved_searches WHERE id = ?').run(id).changes > 0;
  }
}
