/** A dossier change as a list of leaf edits, rendered as text only. */
import type { Change, Json } from './paths';

function show(value: Json | undefined): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

export function ChangeList(props: { changes: Change[]; empty: string; label?: string; testId?: string }) {
  if (props.changes.length === 0) return <p className="muted">{props.empty}</p>;
  return (
    // Focusable because it scrolls: keyboard users must be able to scroll a long change list.
    <ul
      className="change-list"
      aria-label={props.label ?? 'Changes'}
      data-testid={props.testId ?? 'dossier-diff'}
      tabIndex={0}
    >
      {props.changes.map((change) => (
        <li key={`${change.kind}:${change.path}`} className={`change-${change.kind}`}>
          <code>{change.path}</code>{' '}
          {change.kind === 'added' ? <span>added “{show(change.after)}”</span> : null}
          {change.kind === 'removed' ? <span>removed “{show(change.before)}”</span> : null}
          {change.kind === 'changed' ? (
            <span>
              “{show(change.before)}” → “{show(change.after)}”
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
