/**
 * Counts the shelf's haystacks that contain a needle, fast enough for 100k handles inside the frame a key is
 * typed in. An index built while the window is idle holds, for each character and each pair of adjacent
 * characters, one bit per haystack that contains it; a needle's candidates are the haystacks holding all of
 * its characters and pairs (and, when it extends the last needle, what that matched), and only those are
 * searched. A needle of one or two characters is counted from its bits alone. The pairs matter on a word's
 * second key: two common letters alone still leave half a 100k shelf to search, the pair they make rarely
 * does. Until the index is built, every haystack is searched.
 */

/** Characters the index keeps a bit set for; rarer scripts beyond this are searched without one. */
const MAX_INDEXED_CHARACTERS = 160;
/**
 * Pairs of characters likewise: 12.5 KB each at 100k haystacks, so at most 25 MB. Latin handles, digits and
 * names make about 1,300; a pair first seen past the cap narrows nothing and is searched.
 */
const MAX_INDEXED_PAIRS = 2_048;
/** Haystacks indexed per step, so one idle step stays short. */
const INDEX_STEP = 8_000;

interface Matched {
  needle: string;
  bits: Uint32Array;
  count: number;
}

function popcount(word: number): number {
  let w = word - ((word >>> 1) & 0x55555555);
  w = (w & 0x33333333) + ((w >>> 2) & 0x33333333);
  return (((w + (w >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export class ShelfMatcher {
  private last: Matched | null = null;
  /** Per character code: its haystacks' bits, or null when that character has no bit set (over the cap). */
  private readonly characters = new Map<number, Uint32Array | null>();
  /** The same per pair of adjacent character codes (first × 65536 + second). */
  private readonly pairs = new Map<number, Uint32Array | null>();
  private indexed = 0;
  private readonly words: number;

  constructor(private readonly haystacks: readonly string[]) {
    this.words = Math.ceil(haystacks.length / 32);
  }

  get indexReady(): boolean {
    return this.indexed === this.haystacks.length;
  }

  /** Indexes the next haystacks; true once all are. */
  indexStep(): boolean {
    const { haystacks, characters, pairs } = this;
    const end = Math.min(haystacks.length, this.indexed + INDEX_STEP);
    for (let position = this.indexed; position < end; position++) {
      const haystack = haystacks[position]!;
      const word = position >>> 5;
      const bit = 1 << (position & 31);
      let previous = -1;
      for (let i = 0; i < haystack.length; i++) {
        const code = haystack.charCodeAt(i);
        const bits = this.bitsFor(characters, code, MAX_INDEXED_CHARACTERS);
        if (bits) bits[word]! |= bit;
        if (previous >= 0) {
          const pairBits = this.bitsFor(pairs, previous * 65536 + code, MAX_INDEXED_PAIRS);
          if (pairBits) pairBits[word]! |= bit;
        }
        previous = code;
      }
    }
    this.indexed = end;
    return this.indexReady;
  }

  /** The bit set of a key, made on first sight while under the cap. */
  private bitsFor(index: Map<number, Uint32Array | null>, key: number, cap: number): Uint32Array | null {
    let bits = index.get(key);
    if (bits === undefined) {
      // A key first seen after the cap never gets bits: its earlier haystacks would be missing from them.
      bits = index.size < cap ? new Uint32Array(this.words) : null;
      index.set(key, bits);
    }
    return bits;
  }

  /** The character and pair keys of a needle, each once, with the index each is looked up in. */
  private keysOf(needle: string): [Map<number, Uint32Array | null>, number][] {
    const keys = new Map<string, [Map<number, Uint32Array | null>, number]>();
    for (let i = 0; i < needle.length; i++) {
      const code = needle.charCodeAt(i);
      keys.set(`c${code}`, [this.characters, code]);
      if (i > 0) {
        const pair = needle.charCodeAt(i - 1) * 65536 + code;
        keys.set(`p${pair}`, [this.pairs, pair]);
      }
    }
    return [...keys.values()];
  }

  count(needle: string): number {
    if (needle === '') return this.haystacks.length;
    const last = this.last;
    if (last?.needle === needle) return last.count;
    const narrowing = last !== null && needle.includes(last.needle);
    let candidates: Uint32Array | null = narrowing ? last.bits.slice() : null;
    let exact = false;
    if (this.indexReady) {
      let everyKeyIndexed = true;
      for (const [index, key] of this.keysOf(needle)) {
        const bits = index.get(key);
        // Never seen in any haystack: nothing can contain the needle.
        if (bits === undefined) return this.keep(needle, new Uint32Array(this.words), 0);
        if (bits === null) {
          everyKeyIndexed = false;
          continue;
        }
        if (candidates) for (let w = 0; w < this.words; w++) candidates[w]! &= bits[w]!;
        else candidates = bits.slice();
      }
      // A haystack holding the one character, or the one pair, contains the needle: nothing left to search.
      exact = needle.length <= 2 && everyKeyIndexed;
    }
    if (exact && candidates) {
      let count = 0;
      for (let w = 0; w < this.words; w++) count += popcount(candidates[w]!);
      return this.keep(needle, candidates, count);
    }
    return this.search(needle, candidates);
  }

  /** The candidates (every haystack when null) that contain the needle. */
  private search(needle: string, candidates: Uint32Array | null): number {
    const { haystacks } = this;
    const found = new Uint32Array(this.words);
    let count = 0;
    if (candidates) {
      for (let w = 0; w < this.words; w++) {
        let word = candidates[w]!;
        while (word !== 0) {
          const low = word & -word;
          const position = (w << 5) + 31 - Math.clz32(low);
          word ^= low;
          if (haystacks[position]!.includes(needle)) {
            found[w]! |= low;
            count++;
          }
        }
      }
    } else {
      for (let position = 0; position < haystacks.length; position++) {
        if (haystacks[position]!.includes(needle)) {
          found[position >>> 5]! |= 1 << (position & 31);
          count++;
        }
      }
    }
    return this.keep(needle, found, count);
  }

  private keep(needle: string, bits: Uint32Array, count: number): number {
    this.last = { needle, bits, count };
    return count;
  }
}
