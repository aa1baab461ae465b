/**
 * Finds the exact source text of each element of a top-level array in a JSON document, so snapshots can be
 * kept byte-for-byte as the service sent them. The document must already have parsed as JSON.
 */
function skipString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\') i += 2;
    else if (ch === '"') return i + 1;
    else i++;
  }
  throw new Error('unterminated string');
}

function skipWhitespace(text: string, start: number): number {
  let i = start;
  while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  return i;
}

/** Index just past the value starting at `start`. */
function skipValue(text: string, start: number): number {
  const ch = text[start];
  if (ch === '"') return skipString(text, start);
  if (ch === '{' || ch === '[') {
    let depth = 0;
    let i = start;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i = skipString(text, i);
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    throw new Error('unterminated container');
  }
  let i = start;
  while (i < text.length && !/[\s,}\]]/.test(text[i] ?? '')) i++;
  return i;
}

/** The raw text of each element of `document[key]`, or null when the key or array is absent. */
export function topLevelArrayElements(document: string, key: string): string[] | null {
  let i = skipWhitespace(document, 0);
  if (document[i] !== '{') return null;
  i++;
  let found: string[] | null = null;
  while (i < document.length) {
    i = skipWhitespace(document, i);
    if (document[i] === '}') break;
    if (document[i] === ',') {
      i++;
      continue;
    }
    const keyEnd = skipString(document, i);
    const name = JSON.parse(document.slice(i, keyEnd)) as string;
    i = skipWhitespace(document, keyEnd);
    i = skipWhitespace(document, i + 1); // past ':'
    const valueEnd = skipValue(document, i);
    if (name === key && document[i] === '[') {
      const elements: string[] = [];
      let j = skipWhitespace(document, i + 1);
      while (j < valueEnd - 1) {
        if (document[j] === ',') {
          j = skipWhitespace(document, j + 1);
          continue;
        }
        const end = skipValue(document, j);
        elements.push(document.slice(j, end));
        j = skipWhitespace(document, end);
      }
      found = elements;
    }
    i = valueEnd;
  }
  return found;
}
