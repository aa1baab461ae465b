/**
 * Every word in the search index, in order, so a prefix typed in the Library (`regul`) becomes the few whole
 * words it stands for (`regulation OR regulator`). FTS5 answers a prefix by merging the doclists of every word
 * that starts with it into one before the first row: 15-60 ms for a common prefix at 100k reports, where the
 * same words as an OR stream their rows in about a millisecond.
 *
 * The list is read from the index itself (fts5vocab) in small steps, from the first prefix typed, and then
 * kept up to date with search_progress.indexed_up_to: before each use it adds the words of reports indexed
 * since, by this process or another on the same library (a CLI run, a second window). Until the read is done,
 * a prefix is left to FTS5, which gives the same matches more slowly.
 */
import type { DeskDb } from '../db/open';
import { foldWord } from './search-syntax';

/** Words read per step: fts5vocab walks each word's doclist to count it, up to 3 ms for a word in every report. */
const LOAD_STEP = 10;
/** Reports indexed elsewhere past which the list is read again from the index instead of from each report. */
export const MAX_CATCH_UP = 2_000;
/** Past this many words, a prefix is left to FTS5: the OR would cost more than the merge. */
export const MAX_EXPANSION = 64;

/**
 * The index's tokenizer (unicode61) keeps letters, numbers and private-use characters together and folds case
 * and diacritics. Whether it treats a combining mark as part of a word or as a break, both spellings are
 * kept: an extra word that the index lacks matches nothing, a missing one would lose matches.
 */
const WITH_MARKS = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;
const WITHOUT_MARKS = /[\p{L}\p{N}\p{Co}]+/gu;
const ASCII_ONLY = /^[\p{ASCII}]*$/u;

function wordsOfText(text: string): Set<string> {
  const words = new Set<string>();
  for (const word of text.match(WITH_MARKS) ?? []) words.add(foldWord(word));
  if (!ASCII_ONLY.test(text))
    for (const word of text.match(WITHOUT_MARKS) ?? []) {
      words.add(foldWord(word));
      words.add(word.toLowerCase());
    }
  words.delete('');
  return words;
}

/** The first index in `sorted` whose word is not before `word`. */
function lowerBound(sorted: string[], word: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class SearchVocabulary {
  private sorted: string[] = [];
  /** The last word read from the index, or null before the first step; `done` once all are read. */
  private readFrom: string | null = null;
  private done = false;
  private loading = false;
  /** Bumped by forget(): a read under way for the list as it was stops. */
  private generation = 0;
  /** Every report with a key up to this one has its words in the list. */
  private knownUpTo = 0;

  constructor(
    private readonly db: DeskDb,
    private readonly textOfRaw: (raw: string) => string,
  ) {}

  private indexedUpTo(): number {
    return (
      this.db.prepare<[], { n: number }>('SELECT indexed_up_to AS n FROM search_progress WHERE id = 1').get()
        ?.n ?? 0
    );
  }

  /** Starts reading the index's words in steps between other calls; later calls do nothing. */
  load(): void {
    if (this.loading || this.done) return;
    this.loading = true;
    this.sorted = [];
    this.readFrom = null;
    // What is indexed after this point may land in a range of words already read: caught up from the reports.
    this.knownUpTo = this.indexedUpTo();
    this.db.exec(
      'CREATE VIRTUAL TABLE IF NOT EXISTS temp.snapshot_search_words USING fts5vocab(main, snapshot_search, row)',
    );
    const step = this.db.prepare<[string, number], { term: string }>(
      'SELECT term FROM temp.snapshot_search_words WHERE term > ? ORDER BY term LIMIT ?',
    );
    const generation = this.generation;
    const next = () => {
      if (!this.db.open || generation !== this.generation) return;
      const words = step.all(this.readFrom ?? '', LOAD_STEP).map((row) => row.term);
      for (const word of words) this.insert(word);
      this.readFrom = words.at(-1) ?? this.readFrom;
      if (words.length < LOAD_STEP) {
        this.done = true;
        this.loading = false;
      } else setImmediate(next);
    };
    setImmediate(next);
  }

  /** The index was rebuilt from other reports (a backup restored): the list is read again when next used. */
  forget(): void {
    this.generation++;
    this.sorted = [];
    this.readFrom = null;
    this.done = false;
    this.loading = false;
    this.knownUpTo = 0;
  }

  /** Resolves once every word of the index is known (for benchmarks and tests that need the fast path). */
  async ready(): Promise<void> {
    this.load();
    while (!this.done) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Words of a report whose text changed under a key already known; before the index is read, that read finds them. */
  addText(text: string): void {
    if (!this.loading && !this.done) return;
    for (const word of wordsOfText(text)) this.insert(word);
  }

  /**
   * The texts of the reports this process has just indexed and committed, keys after `from` up to `upTo`: the
   * list takes their words as it would from the reports, without reading them back. Skipped when the list is
   * not where they start (another process indexed in between): catchUp then reads the reports.
   */
  indexed(from: number, upTo: number, texts: readonly string[]): void {
    if ((!this.loading && !this.done) || this.knownUpTo !== from) return;
    for (const text of texts) this.addText(text);
    this.knownUpTo = upTo;
  }

  /** Adds the words of reports indexed since the list last looked; false when it must be read again. */
  private catchUp(): boolean {
    const upTo = this.indexedUpTo();
    // The index started over (a backup restored, here or by another process): the list is read again.
    if (upTo < this.knownUpTo) return false;
    if (upTo === this.knownUpTo) return true;
    if (upTo - this.knownUpTo > MAX_CATCH_UP) return false;
    const raws = this.db
      .prepare<[number, number], { raw: string }>(
        'SELECT raw_json AS raw FROM snapshots WHERE text_id > ? AND text_id <= ? ORDER BY text_id',
      )
      .all(this.knownUpTo, upTo);
    for (const { raw } of raws) this.addText(this.textOfRaw(raw));
    this.knownUpTo = upTo;
    return true;
  }

  private insert(word: string): void {
    const at = lowerBound(this.sorted, word);
    if (this.sorted[at] !== word) this.sorted.splice(at, 0, word);
  }

  /**
   * The index's words that start with `prefix`, or null when they are not all known yet or are more than
   * MAX_EXPANSION (then FTS5 answers the prefix itself).
   */
  expand(prefix: string): string[] | null {
    if (!this.done) {
      this.load();
      return null;
    }
    if (!this.catchUp()) {
      this.done = false;
      this.load();
      return null;
    }
    const from = lowerBound(this.sorted, prefix);
    const words: string[] = [];
    for (let i = from; i < this.sorted.length && this.sorted[i]!.startsWith(prefix); i++) {
      if (words.length === MAX_EXPANSION) return null;
      words.push(this.sorted[i]!);
    }
    return words;
  }
}
