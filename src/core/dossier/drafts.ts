/**
 * Dossier drafts, kept across restarts per service and handle: the person's draft and the dossier it started
 * from (its base, for the three-way view when someone else saved meanwhile), both as the JSON that was sent.
 */
import type { DeskDb } from '../db/open';
import { handleKey } from '../../shared/handle-key';

export interface DossierDraft {
  baseJson: string;
  draftJson: string;
  savedAt: string;
}

/** A draft is kept under handleKey: the service compares handles case-insensitively, and so does the key. */
export class DossierDrafts {
  constructor(private readonly db: DeskDb) {}

  get(serviceUrl: string, handle: string): DossierDraft | null {
    return (
      this.db
        .prepare<[string, string], DossierDraft>(
          'SELECT base_json AS baseJson, draft_json AS draftJson, saved_at AS savedAt FROM dossier_drafts WHERE service_url = ? AND handle = ?',
        )
        .get(serviceUrl, handleKey(handle)) ?? null
    );
  }

  put(serviceUrl: string, handle: string, draft: DossierDraft): void {
    this.db
      .prepare(
        'INSERT OR REPLACE INTO dossier_drafts (service_url, handle, base_json, draft_json, saved_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(serviceUrl, handleKey(handle), draft.baseJson, draft.draftJson, draft.savedAt);
  }

  /** True when there was a draft to discard. */
  discard(serviceUrl: string, handle: string): boolean {
    return (
      this.db
        .prepare('DELETE FROM dossier_drafts WHERE service_url = ? AND handle = ?')
        .run(serviceUrl, handleKey(handle)).changes > 0
    );
  }
}
