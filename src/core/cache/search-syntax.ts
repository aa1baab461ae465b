/**
 * What a person types into the library search, as an FTS5 query: each word a prefix ("batt" finds battery),
 * "quoted words" an exact phrase, all of them required. Only letters and digits reach FTS5, each term inside
 * double quotes, so no FTS5 syntax can get through.
 */
export interface SearchTerms {
  /** Lower-cased words, each matched as a prefix. */
  prefixes: string[];
  /** Lower-cased phrases, each a run of words matched exactly and in order. */
  phrases: string[][];
}

const MAX_TERMS = 12;
const WORD = /[\p{L}\p{N}]+/gu;

/** Lower case without diacritics, as the index's tokenizer (unicode61, remove_diacritics 2) folds words. */
export function foldWord(word: string): string {
  // Most words are ASCII: normalizing each of them made snippets ten times slower.
  if (ASCII.test(word)) return word.toLowerCase();
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
const ASCII = /^[\p{ASCII}]*$/u;

const wordsOf = (text: string) => (text.match(WORD) ?? []).map(foldWord).filter((word) => word.length > 0);

export function parseSearch(text: string): SearchTerms {
  const prefixes: string[] = [];
  const phrases: string[][] = [];
  // Odd pieces are inside quotes; an unclosed quote runs to the end of the text.
  text.split('"').forEach((piece, index) => {
    if (index % 2 === 0) prefixes.push(...wordsOf(piece));
    else {
      const words = wordsOf(piece);
      if (words.length === 1) prefixes.push(words[0]!);
      else if (words.length > 1) phrases.push(words.slice(0, MAX_TERMS));
    }
  });
  return { prefixes: prefixes.slice(0, MAX_TERMS), phrases: phrases.slice(0, MAX_TERMS) };
}

/** The FTS5 MATCH expression for the terms, or null when nothing searchable was typed. */
export function matchExpression(terms: SearchTerms): string | null {
  const parts = [
    ...terms.phrases.map((words) => `"${words.join(' ')}"`),
    ...terms.prefixes.map((word) => `"${word}"*`),
  ];
  return parts.length > 0 ? parts.join(' ') : null;
}

export function ftsQuery(text: string): string | null {
  return matchExpression(parseSearch(text));
}

/** How the terms read back to a person: words, and phrases in quotes. */
export function describeTerms(terms: SearchTerms): string[] {
  return [...terms.phrases.map((words) => `"${words.join(' ')}"`), ...terms.prefixes];
}
