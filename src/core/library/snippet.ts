/**
 * A snippet of a report around what was searched for, made from the stored report for the hits shown (the
 * index keeps no copy of the text): about SNIPPET_CHARS characters cut at word edges, matches between \u0001
 * and \u0002. One regular expression finds the matches, so a page of 50 snippets costs well under a millisecond.
 *
 * The cost is bounded per report whatever the report holds: at most MAX_SCANNED_CHARS of its text are searched,
 * at most MAX_MATCHES matches are kept, and the best window is found in one pass over them. (Counting the
 * matches of every window afresh took time quadratic in the matches: 17 s for one report repeating a word
 * 40,000 times, with core answering nothing else meanwhile.)
 */
import { foldWord, type SearchTerms } from './search-syntax';

const SNIPPET_CHARS = 180;
const BEFORE_CHARS = 40;
/** Text searched for a snippet: the snippet shows the best window within it. */
export const MAX_SCANNED_CHARS = 16 * 1024;
/** Matches considered for the best window: a window holds a few dozen at most. */
export const MAX_MATCHES = 1_000;
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
  for (const hit of (folded ?? text).matchAll(regex)) {
    found.push([hit.index, hit.index + hit[0].length]);
    if (found.length >= MAX_MATCHES) break;
  }
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

/**
 * The start of the window that holds the most matches, preferring the earliest. Matches come in order and do
 * not overlap, so their starts and ends both rise: the first match inside a window and the last one only move
 * forward as the window does, and the whole search is one pass.
 */
function bestWindow(found: [number, number][]): number {
  let start = 0;
  let best = -1;
  let first = 0;
  let last = 0;
  for (const [at] of found) {
    const from = Math.max(0, at - BEFORE_CHARS);
    while (first < found.length && found[first]![0] < from) first++;
    if (last < first) last = first;
    while (last < found.length && found[last]![1] <= from + SNIPPET_CHARS) last++;
    if (last - first > best) {
      best = last - first;
      start = from;
    }
  }
  return start;
}

export function snippetOf(whole: string, terms: SearchTerms): string {
  const text = whole.length > MAX_SCANNED_CHARS ? whole.slice(0, MAX_SCANNED_CHARS) : whole;
  const found = matches(text, terms);
  let start = bestWindow(found);
  start = start > 0 ? wordEdgeAfter(text, start) : 0;
  const end =
    start + SNIPPET_CHARS >= whole.length
      ? text.length
      : wordEdgeBefore(text, Math.min(start + SNIPPET_CHARS, text.length)) || text.length;
  let out = '';
  let at = start;
  for (const [s, e] of found) {
    if (s < start || e > end) continue;
    out += `${text.slice(at, s)}\u0001${text.slice(s, e)}\u0002`;
    at = e;
  }
  out += text.slice(at, end);
  return `${start > 0 ? '…' : ''}${out.replace(/\s+/g, ' ').trim()}${end < whole.length ? '…' : ''}`;
}
