/**
 * The person's own tags and note on this report, kept in desk.db by the report (buying it again keeps them).
 * Tags: type and press Enter (or a comma) to add, Backspace in the empty field removes the last, each chip
 * has its own remove button. The note is saved explicitly (button or Ctrl/⌘+Enter), and says when it has
 * unsaved changes. Give it a key per report: another report starts from its own note.
 */
import { useState } from 'react';
import { useRpcMutation, useRpcQuery } from '../rpc/context';
import { ErrorLine } from '../components/States';
import { dateTime } from '../format';
import { reportText as t } from '../text/report';

export function ReportNotes(props: { id: string; serviceUrl: string }) {
  const ref = { id: props.id, serviceUrl: props.serviceUrl };
  const labels = useRpcQuery('report.labels', ref);
  const tag = useRpcMutation('report.tag');
  const note = useRpcMutation('report.note');
  const [tagText, setTagText] = useState('');
  const [draft, setDraft] = useState<string | null>(null);
  const saved = labels.data?.note ?? '';
  const dirty = draft !== null && draft !== saved;
  const tags = labels.data?.tags ?? [];

  const addTag = () => {
    const text = tagText.trim().replace(/,$/, '');
    if (!text) return;
    // Cleared now, not when core answers: letters typed for the next tag in the meantime are kept. A tag
    // that fails comes back only into a field still empty, so it never overwrites what was typed since.
    setTagText('');
    tag.mutate(
      { ...ref, action: 'add', tag: text },
      { onError: () => setTagText((typed) => (typed === '' ? text : typed)) },
    );
  };
  const saveNote = () => note.mutate({ ...ref, note: draft ?? saved }, { onSuccess: () => setDraft(null) });

  return (
    <section className="report-notes no-print" aria-labelledby="report-notes-title">
      <h2 id="report-notes-title">{t('notesTitle')}</h2>
      <div className="tag-editor">
        <ul aria-label={t('tags')} className="tags">
          {tags.map((name) => (
            <li key={name} className="tag">
              #<bdi>{name}</bdi>{' '}
              <button
                type="button"
                className="link"
                aria-label={t('removeTag', { tag: name })}
                onClick={() => tag.mutate({ ...ref, action: 'remove', tag: name })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <input
          aria-label={t('addTag')}
          placeholder={t('addTagPlaceholder')}
          value={tagText}
          maxLength={41}
          onChange={(e) => setTagText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ',') {
              e.preventDefault();
              addTag();
            } else if (e.key === 'Backspace' && tagText === '' && tags.length > 0) {
              tag.mutate({ ...ref, action: 'remove', tag: tags[tags.length - 1]! });
            }
          }}
        />
      </div>
      <ErrorLine error={tag.error} />
      <label className="note-editor">
        {t('note')}
        <textarea
          rows={4}
          maxLength={10_000}
          value={draft ?? saved}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              saveNote();
            }
          }}
        />
      </label>
      <div className="note-actions">
        <button type="button" onClick={saveNote} disabled={!dirty || note.isPending}>
          {t('saveNote')}
        </button>
        <span className="muted small" aria-live="polite" data-testid="note-state">
          {dirty
            ? t('unsaved')
            : labels.data?.noteUpdatedAt
              ? t('savedAt', { when: dateTime(labels.data.noteUpdatedAt) })
              : ''}
        </span>
      </div>
      <ErrorLine error={note.error} />
    </section>
  );
}
