/**
 * A person's own tags and note on a report they own, kept in desk.db by the report (service and id), never by
 * a stored copy: buying the report again replaces the copy and keeps them. Tags are short words so that
 * `tag:` finds them as typed; a note is free text, found with `note:`.
 */
import type { LibraryItem, ReportLabels } from '../../shared/rpc';
import type { DeskDb } from '../db/open';
import { DeskError } from '../base/errors';

export const MAX_TAGS = 20;
export const MAX_NOTE_CHARS = 10_000;
const TAG = /^[\p{L}\p{N}][\p{L}\p{N}_.-]{0,39}$/u;

/** A tag as kept: lower case, without a leading #; anything else a person can act on is refused. */
export function normalTag(text: string): string {
  const tag = text.trim().replace(/^#/, '').toLowerCase();
  if (!TAG.test(tag))
    throw new DeskError(
      'tag_invalid',
      `"${text.slice(0, 40)}" cannot be a tag: use 1 to 40 letters, digits, "-", "_" or ".", starting with a letter or digit.`,
      'usage',
    );
  return tag;
}

export class ReportLabelStore {
  constructor(
    private readonly db: DeskDb,
    private readonly now: () => Date,
  ) {}

  get(serviceUrl: string, id: string): ReportLabels {
    const tags = this.db
      .prepare<[string, string], { tag: string }>(
        'SELECT tag FROM report_tags WHERE service_url = ? AND report_id = ? ORDER BY tag',
      )
      .all(serviceUrl, id)
      .map((row) => row.tag);
    const note = this.db
      .prepare<[string, string], { note: string; updatedAt: string }>(
        'SELECT note, updated_at AS updatedAt FROM report_notes WHERE service_url = ? AND report_id = ?',
      )
      .get(serviceUrl, id);
    return { id, serviceUrl, tags, note: note?.note ?? '', noteUpdatedAt: note?.updatedAt ?? null };
  }

  addTag(serviceUrl: string, id: string, text: string): ReportLabels {
    const tag = normalTag(text);
    this.db
      .transaction(() => {
        const { tags } = this.get(serviceUrl, id);
        if (tags.includes(tag)) return;
        if (tags.length >= MAX_TAGS)
          throw new DeskError(
            'too_many_tags',
            `Report ${id} already has ${MAX_TAGS} tags; remove one before adding "${tag}".`,
            'usage',
          );
        this.db
          .prepare('INSERT INTO report_tags (service_url, report_id, tag, added_at) VALUES (?, ?, ?, ?)')
          .run(serviceUrl, id, tag, this.now().toISOString());
      })
      .immediate();
    return this.get(serviceUrl, id);
  }

  removeTag(serviceUrl: string, id: string, text: string): ReportLabels {
    this.db
      .prepare('DELETE FROM report_tags WHERE service_url = ? AND report_id = ? AND tag = ?')
      .run(serviceUrl, id, normalTag(text));
    return this.get(serviceUrl, id);
  }

  /** An empty note is no note. */
  setNote(serviceUrl: string, id: string, note: string): ReportLabels {
    if (note.length > MAX_NOTE_CHARS)
      throw new DeskError(
        'note_too_long',
        `A note holds at most ${MAX_NOTE_CHARS.toLocaleString('en-US')} characters; this one has ${note.length.toLocaleString('en-US')}.`,
        'usage',
      );
    if (note.trim() === '')
      this.db.prepare('DELETE FROM report_notes WHERE service_url = ? AND report_id = ?').run(serviceUrl, id);
    else
      this.db
        .prepare(
          `INSERT INTO report_notes (service_url, report_id, note, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (service_url, report_id) DO UPDATE SET note = excluded.note, updated_at = excluded.updated_at`,
        )
        .run(serviceUrl, id, note, this.now().toISOString());
    return this.get(serviceUrl, id);
  }
}

type Unlabelled = Omit<LibraryItem, 'tags' | 'note'>;

/**
 * The items with their tags and notes, read in one query per table for the ids listed: tags and notes are
 * made by hand, so these tables stay small beside the library.
 */
export function withLabels<T extends Unlabelled>(
  db: DeskDb,
  items: T[],
): (T & Pick<LibraryItem, 'tags' | 'note'>)[] {
  const none = { tags: [], note: null };
  // Most libraries label few reports or none: a list of 100k then costs nothing extra.
  const labelled = db
    .prepare<[], { n: number }>(
      'SELECT EXISTS (SELECT 1 FROM report_tags) + EXISTS (SELECT 1 FROM report_notes) AS n',
    )
    .get();
  if (items.length === 0 || !labelled?.n) return items.map((item) => ({ ...item, ...none }));
  const ids = JSON.stringify([...new Set(items.map((item) => item.id))]);
  const key = (serviceUrl: string, id: string) => `${serviceUrl}\n${id}`;
  const tags = new Map<string, string[]>();
  for (const row of db
    .prepare<[string], { service_url: string; report_id: string; tag: string }>(
      'SELECT service_url, report_id, tag FROM report_tags WHERE report_id IN (SELECT value FROM json_each(?)) ORDER BY tag',
    )
    .iterate(ids)) {
    const k = key(row.service_url, row.report_id);
    tags.set(k, [...(tags.get(k) ?? []), row.tag]);
  }
  const notes = new Map<string, string>();
  for (const row of db
    .prepare<[string], { service_url: string; report_id: string; note: string }>(
      'SELECT service_url, report_id, note FROM report_notes WHERE report_id IN (SELECT value FROM json_each(?))',
    )
    .iterate(ids))
    notes.set(key(row.service_url, row.report_id), row.note);
  return items.map((item) => ({
    ...item,
    tags: tags.get(key(item.serviceUrl, item.id)) ?? [],
    note: notes.get(key(item.serviceUrl, item.id)) ?? null,
  }));
}
