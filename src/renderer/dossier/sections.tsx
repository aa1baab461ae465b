/** Structured editors for the parts of a dossier: profile fields, posts, edges, report history. */
import { useState } from 'react';
import type { Bundle } from '../../shared/wire';
import { dateTime, humanize } from '../format';
import { RowsEditor, type Row } from './RowsEditor';

type Edit = (next: Bundle) => void;

const text = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number'
    ? String(value)
    : value == null
      ? ''
      : JSON.stringify(value);

export function ProfileEditor(props: { bundle: Bundle; onChange: Edit }) {
  const profile = props.bundle.profile ?? {};
  const [newKey, setNewKey] = useState('');
  const set = (key: string, value: unknown) =>
    props.onChange({ ...props.bundle, profile: { ...profile, [key]: value } });
  return (
    <fieldset className="dossier-section">
      <legend>Profile</legend>
      {Object.entries(profile).map(([key, value]) => (
        <label key={key} className="field-row">
          <span title={key}>{humanize(key)}</span>
          <input
            type="text"
            value={text(value)}
            spellCheck={typeof value === 'string'}
            onChange={(e) =>
              set(
                key,
                typeof value === 'number' &&
                  e.target.value.trim() !== '' &&
                  !Number.isNaN(Number(e.target.value))
                  ? Number(e.target.value)
                  : e.target.value,
              )
            }
          />
          <button
            type="button"
            aria-label={`Remove profile field ${key}`}
            onClick={() =>
              props.onChange({
                ...props.bundle,
                profile: Object.fromEntries(Object.entries(profile).filter(([k]) => k !== key)),
              })
            }
          >
            Remove
          </button>
        </label>
      ))}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (newKey.trim() && !(newKey.trim() in profile)) set(newKey.trim(), '');
          setNewKey('');
        }}
      >
        <input
          type="text"
          value={newKey}
          onChange={(e) => setNewKey(e.target.value)}
          placeholder="new field name"
          aria-label="New profile field"
          spellCheck={false}
        />
        <button type="submit">Add field</button>
      </form>
    </fieldset>
  );
}

/** An ISO instant as the value of a datetime-local field read as UTC ("2026-10-01T05:00"), or null. */
function utcField(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 16);
}

/** Oldest first by createdAt; posts without a readable date keep their place at the end. */
function inTimeOrder(posts: Row[]): { row: Row; index: number }[] {
  const at = (post: Row) => {
    const time = typeof post['createdAt'] === 'string' ? Date.parse(post['createdAt']) : Number.NaN;
    return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
  };
  return posts.map((row, index) => ({ row, index })).sort((a, b) => at(a.row) - at(b.row));
}

export function PostsEditor(props: { bundle: Bundle; onChange: Edit; now: () => string }) {
  return (
    <RowsEditor
      bundle={props.bundle}
      onChange={props.onChange}
      list="posts"
      title="Posts"
      noun="post"
      columns={['Created (UTC)', 'Text', 'Id']}
      order={inTimeOrder}
      rowKey={(post, index) => text(post['id']) || index}
      blank={() => ({ id: `post_${Date.now().toString(36)}`, text: '', createdAt: props.now() })}
      cells={(post, position, update) => (
        <>
          <td className="nowrap">
            {utcField(post['createdAt']) !== null ? (
              <input
                type="datetime-local"
                aria-label={`Post ${position + 1} created`}
                title={text(post['createdAt'])}
                value={utcField(post['createdAt']) ?? ''}
                onChange={(e) => {
                  if (e.target.value) update({ createdAt: `${e.target.value}:00.000Z` });
                }}
              />
            ) : (
              <input
                type="text"
                aria-label={`Post ${position + 1} created`}
                value={text(post['createdAt'])}
                onChange={(e) => update({ createdAt: e.target.value })}
              />
            )}
          </td>
          <td>
            <textarea
              aria-label={`Post ${position + 1} text`}
              rows={2}
              spellCheck
              value={text(post['text'])}
              onChange={(e) => update({ text: e.target.value })}
            />
          </td>
          <td className="mono small">{text(post['id'])}</td>
        </>
      )}
    />
  );
}

export function EdgesEditor(props: { bundle: Bundle; onChange: Edit }) {
  return (
    <RowsEditor
      bundle={props.bundle}
      onChange={props.onChange}
      list="edges"
      title="Edges"
      noun="edge"
      columns={['From', 'To', 'Kind']}
      rowKey={(_, index) => index}
      blank={() => ({ from: props.bundle.username, to: '', kind: 'mentions' })}
      cells={(edge, position, update) =>
        (['from', 'to', 'kind'] as const).map((field) => (
          <td key={field}>
            <input
              type="text"
              aria-label={`Edge ${position + 1} ${field}`}
              value={text(edge[field])}
              onChange={(e) => update({ [field]: e.target.value })}
            />
          </td>
        ))
      }
    />
  );
}

/** Reports can be viewed and removed; their order is always newest first by createdAt, never by hand. */
export function ReportsEditor(props: { bundle: Bundle; onChange: Edit }) {
  const reports = [...props.bundle.reportHistory].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return (
    <fieldset className="dossier-section">
      <legend>Report history ({reports.length})</legend>
      <p className="muted small">
        Ordered by creation date; the service keeps the union of histories on save.
      </p>
      <table className="menu-table" aria-label="Report history">
        <thead>
          <tr>
            <th>Created</th>
            <th>Model</th>
            <th>Posts</th>
            <th>Id</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {reports.map((report) => (
            <tr key={report.id}>
              <td className="nowrap">{dateTime(report.createdAt)}</td>
              <td>{report.model}</td>
              <td>{report.meta.postCount ?? ''}</td>
              <td className="mono small">{report.id}</td>
              <td>
                <button
                  type="button"
                  aria-label={`Remove report ${report.id}`}
                  onClick={() =>
                    props.onChange({
                      ...props.bundle,
                      reportHistory: props.bundle.reportHistory.filter((r) => r.id !== report.id),
                    })
                  }
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </fieldset>
  );
}
