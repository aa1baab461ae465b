/**
 * Counts the shelf's haystacks that contain a needle, fast enough for 100k handles inside the frame a key is
 * typed in. An index built while the window is idle holds, for each character, one bit per haystack that
 * contains it; a needle's candidates are the haystacks holding all of its characters (and, when it extends the
 * last needle, what that matched), and only those are searched. A one-character needle is counted from its
 * bits alone. Until the index is built, every haystack is searched.
 */

/** Characters the index keeps a bit set for; rarer scripts beyond this are searched without one. */
const MAX_INDEXED_CHARACTERS = 160;
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
    const { haystacks, characters } = this;
    const end = Math.min(haystacks.length, this.indexed + INDEX_STEP);
    for (let position = this.indexed; position < end; position++) {
      const haystack = haystacks[position]!;
      const word = position >>> 5;
      const bit = 1 << (position & 31);
      for (let i = 0; i < haystack.length; i++) {
        const code = haystack.charCodeAt(i);
        let bits = characters.get(code);
        if (bits === undefined) {
          // A character first seen after the cap never gets bits: its earlier haystacks would be missing.
          bits = characters.size < MAX_INDEXED_CHARACTERS ? new Uint32Array(this.words) : null;
          characters.set(code, bits);
        }
        if (bits) bits[word]! |= bit;
      }
    }
    this.indexed = end;
    return this.indexReady;
  }

  count(needle: string): number {
    if (needle === '') return this.haystacks.length;
    const last = this.last;
    if (last?.needle === needle) return last.count;
    const narrowing = last !== null && needle.includes(last.needle);
    let candidates: Uint32Array | null = narrowing ? last.bits.slice() : null;
    let exact = false;
    if (this.indexReady) {
      for (const code of new Set(Array.from(needle, (_, i) => needle.charCodeAt(i)))) {
        const bits = this.characters.get(code);
        if (bits === undefined) return this.keep(needle, new Uint32Array(this.words), 0);
        if (bits === null) continue;
        if (candidates) for (let w = 0; w < this.words; w++) candidates[w]! &= bits[w]!;
        else candidates = bits.slice();
      }
      // Every haystack with the one character contains the needle: nothing left to search.
      exact = needle.length === 1 && this.characters.get(needle.charCodeAt(0)) !== null;
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
