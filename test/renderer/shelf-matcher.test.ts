/**
 * The Shelf filter's count in the window: the same answer as searching every haystack, whether the character
 * and pair index is built or not, for needles typed, narrowed, widened and cleared, and past the index's caps.
 */
import { describe, expect, it } from 'vitest';
import { ShelfMatcher } from '../../src/renderer/screens/shelf-matcher';

/** A deterministic shelf: handles, display names and labels in Latin letters, digits, and a few other scripts. */
function haystacks(count: number): string[] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789_';
  const word = (length: number, letters: string) =>
    Array.from({ length }, () => letters[next() % letters.length]).join('');
  // 400 CJK characters: more than the index keeps bits for.
  const cjk = Array.from({ length: 400 }, (_, i) => String.fromCharCode(0x4e00 + i)).join('');
  return Array.from({ length: count }, (_, i) => {
    const name = i % 9 === 0 ? word(3, cjk) : word(1 + (next() % 12), alphabet);
    return `${word(4 + (next() % 11), alphabet)}\n${name}\n${i % 5 === 0 ? 'ostrom institute' : ''}`;
  });
}

const naive = (all: string[], needle: string) => all.filter((haystack) => haystack.includes(needle)).length;

function typing(all: string[]): string[] {
  const handle = all[123]!.split('\n')[0]!;
  const cjkName = all[9]!.split('\n')[1]!;
  return [
    ...[...handle].map((_, i) => handle.slice(0, i + 1)),
    `${handle}zz`,
    handle.slice(0, 2),
    '',
    'o',
    'os',
    'ost',
    'ostrom i',
    'x',
    'q7',
    cjkName.slice(0, 1),
    // Pairs: counted from the pair index alone when it holds them, searched when the cap left them out.
    cjkName.slice(1, 3),
    all[4_321]!.split('\n')[1]!.slice(-2),
    'zq',
    '_\n',
    cjkName,
    `${cjkName}a`,
    '\n',
    'é',
  ];
}

describe('ShelfMatcher', () => {
  const all = haystacks(5_000);

  it('counts as a search of every haystack would, before its index is built', () => {
    const matcher = new ShelfMatcher(all);
    for (const needle of typing(all)) expect(matcher.count(needle), needle).toBe(naive(all, needle));
  });

  it('counts the same with its index, built in steps and partly built while typing', () => {
    const matcher = new ShelfMatcher(all);
    const needles = typing(all);
    // Half the needles while the index is being built, the rest once it is.
    for (const [i, needle] of needles.entries()) {
      if (i % 2 === 0 && !matcher.indexReady) matcher.indexStep();
      expect(matcher.count(needle), needle).toBe(naive(all, needle));
    }
    while (!matcher.indexStep());
    expect(matcher.indexReady).toBe(true);
    for (const needle of [...needles].reverse())
      expect(matcher.count(needle), needle).toBe(naive(all, needle));
  });

  it('counts a pair first seen past the pair cap by searching, not from bits it never got', () => {
    // 3,600 distinct pairs of 60 characters, each haystack holding one pair twice over: past the 2,048 cap.
    const cjk = (i: number) => String.fromCharCode(0x4e00 + i);
    const pairs = Array.from({ length: 3_600 }, (_, i) => `${cjk(i % 60)}${cjk(Math.floor(i / 60))}`);
    const shelf = pairs.map((pair, i) => `${pair} ${pairs[(i + 1) % pairs.length]}`);
    const matcher = new ShelfMatcher(shelf);
    while (!matcher.indexStep());
    for (const needle of [pairs[0]!, pairs[1_000]!, pairs[3_000]!, pairs[3_599]!, `${cjk(59)}${cjk(59)}`])
      expect(matcher.count(needle), needle).toBe(naive(shelf, needle));
  });

  it('counts an empty shelf and a shelf not a multiple of 32 long', () => {
    const empty = new ShelfMatcher([]);
    empty.indexStep();
    expect(empty.count('a')).toBe(0);
    const odd = all.slice(0, 37);
    const matcher = new ShelfMatcher(odd);
    while (!matcher.indexStep());
    for (const needle of ['a', 'ab', '1', 'ostrom', 'zzzz'])
      expect(matcher.count(needle)).toBe(naive(odd, needle));
  });
});
