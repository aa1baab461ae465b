/**
 * Model-written text rendered as text nodes with a tiny markdown subset: paragraphs, "- " lists, **bold**
 * and *italic*. No HTML is ever parsed, so nothing in a report can run script or load anything remote.
 */
import type { ReactNode } from 'react';
import { humanize } from '../format';

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const pattern = /\*\*([^*]+)\*\*|\*([^*]+)\*/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index;
    if (at > last) out.push(text.slice(last, at));
    out.push(match[1] !== undefined ? <strong key={at}>{match[1]}</strong> : <em key={at}>{match[2]}</em>);
    last = at + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function RichText(props: { text: string }) {
  const blocks = props.text.split(/\n{2,}/).filter((b) => b.trim().length > 0);
  return (
    <>
      {blocks.map((block, i) => {
        const lines = block.split('\n');
        if (lines.every((line) => /^\s*[-*] /.test(line))) {
          return (
            <ul key={i}>
              {lines.map((line, j) => (
                <li key={j}>{inline(line.replace(/^\s*[-*] /, ''))}</li>
              ))}
            </ul>
          );
        }
        return <p key={i}>{inline(block)}</p>;
      })}
    </>
  );
}

/**
 * Nesting shown before the rest is cut off. Real reports nest two or three levels; a hostile service can send
 * thousands, and a DOM that deep crashes Chromium's renderer (the whole window, not just this screen).
 */
export const MAX_VALUE_DEPTH = 20;

/** Any JSON value as readable text: strings through RichText, others as labelled lists. */
export function ValueView(props: { value: unknown; depth?: number }): ReactNode {
  const { value } = props;
  const depth = props.depth ?? 0;
  if (value === null || value === undefined) return <span className="muted">—</span>;
  if (typeof value === 'string') return <RichText text={value} />;
  if (typeof value === 'number' || typeof value === 'boolean') return <span>{String(value)}</span>;
  if (depth >= MAX_VALUE_DEPTH && typeof value === 'object') {
    return (
      <span className="muted" data-testid="too-deep">
        Nested deeper than {MAX_VALUE_DEPTH} levels; export the report as JSON to see the rest.
      </span>
    );
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>;
    if (value.every((v) => typeof v === 'string' || typeof v === 'number'))
      return <span>{value.join(', ')}</span>;
    return (
      <ul>
        {value.map((v, i) => (
          <li key={i}>
            <ValueView value={v} depth={depth + 1} />
          </li>
        ))}
      </ul>
    );
  }
  if (typeof value === 'object') {
    return (
      <dl className="kv">
        {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
          <div key={k}>
            <dt>{humanize(k)}</dt>
            <dd>
              <ValueView value={v} depth={depth + 1} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return null;
}
