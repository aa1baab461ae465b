/**
 * A snippet of a report around what was searched for, made from the stored report for the hits shown (the
 * index keeps no copy of the text): about SNIPPET_CHARS characters cut at word edges, matches between \u0001
 * and \u0002. One regular expression finds the matches, so a page of 50 snippets costs well under a millisecond.
 */
import { foldWord, type SearchTerms } from './search-syntax';

const SNIPPET_CHARS = 180;
const BEFORE_CHARS = 40;
const WORD_CHAR = '[\\p{L}\\p{N}]';

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matcher(terms: SearchTerms): RegExp | null {
  const alternatives = [
    ...terms.phrases.map(
      (words) => `(?<!${WORD_CHAR})${words.map(escape).join(`[^\\p{L}\\p{N}]+`)}(?!${WORD_CHAR})`,
    ),
    ...terms.prefixes.map((word) => `(?<!${WORD_CHAR})${escape(word)}${WORD_CHAR}*`),
  ];
  return alternatives.length > 0 ? new RegExp(alternatives.join('|'), 'giu') : null;
}

/** Where the terms occur, as [start, end) pairs. Words with diacritics are folded as the index folds them. */
function matches(text: string, terms: SearchTerms): [number, number][] {
  const regex = matcher(terms);
  if (!regex) return [];
  const found: [number, number][] = [];
  const folded = [...text].length === text.length ? foldedSameLength(text) : null;
  for (const hit of (folded ?? text).matchAll(regex)) found.push([hit.index, hit.index + hit[0].length]);
  return found;
}

/** The text folded as the index folds it, when that keeps every offset (else null: match the text itself). */
function foldedSameLength(text: string): string | null {
  const folded = text.replace(/\P{ASCII}/gu, (ch) => (foldWord(ch) || ch).slice(0, 1) || ch);
  return folded.length === text.length ? folded : null;
}

const wordEdgeBefore = (text: string, at: number) => {
  let i = at;
  while (i > 0 && /[\p{L}\p{N}]/u.test(text[i - 1] ?? '')) i--;
  return i;
};
const wordEdgeAfter = (text: string, at: number) => {
  let i = at;
  while (i < text.length && /[\p{L}\p{N}]/u.test(text[i] ?? '')) i++;
  return i;
};

export function snippetOf(text: string, terms: SearchTerms): string {
  const found = matches(text, terms);
  // The window that holds the most matches, preferring the earliest.
  let start = 0;
  let best = -1;
  for (const [at] of found.length > 0 ? found : [[0, 0] as [number, number]]) {
    const from = Math.max(0, at - BEFORE_CHARS);
    const count = found.filter(([s, e]) => s >= from && e <= from + SNIPPET_CHARS).length;
    if (count > best) {
      best = count;
      start = from;
    }
  }
  start = start > 0 ? wordEdgeAfter(text, start) : 0;
  const end =
    start + SNIPPET_CHARS >= text.length
      ? text.length
      : wordEdgeBefore(text, start + SNIPPET_CHARS) || text.length;
  let out = '';
  let at = start;
  for (const [s, e] of found) {
    if (s < start || e > end) continue;
    out += `${text.slice(at, s)}\u0001${text.slice(s, e)}\u0002`;
    at = e;
  }
  out += text.slice(at, end);
  return `${start > 0 ? '…' : ''}${out.replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}
