/** Search snippets arrive with \u0001…\u0002 around matches; they become <mark> text nodes, never HTML. */
const OPEN = '\u0001';
const CLOSE = '\u0002';

export function snippetParts(text: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  let rest = text;
  while (rest.length > 0) {
    const open = rest.indexOf(OPEN);
    if (open < 0) break;
    const close = rest.indexOf(CLOSE, open + 1);
    if (close < 0) break;
    if (open > 0) parts.push({ text: rest.slice(0, open), match: false });
    parts.push({ text: rest.slice(open + 1, close), match: true });
    rest = rest.slice(close + 1);
  }
  if (rest.length > 0) parts.push({ text: rest.replaceAll(OPEN, '').replaceAll(CLOSE, ''), match: false });
  return parts;
}

export function Snippet(props: { text: string }) {
  return (
    <span className="snippet">
      {snippetParts(props.text).map((part, i) =>
        part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
      )}
    </span>
  );
}
