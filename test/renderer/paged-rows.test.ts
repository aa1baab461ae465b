import { describe, expect, it } from 'vitest';
import { pagesTouched, rowFromPages } from '../../src/renderer/components/paged-rows';

describe('paged rows', () => {
  it('names the pages past the first that a view touches, and the page of a row kept in reach', () => {
    expect(pagesTouched(100, 0, 40)).toEqual([]);
    expect(pagesTouched(100, 90, 130)).toEqual([1]);
    expect(pagesTouched(100, 199, 200)).toEqual([1, 2]);
    // End in a long list: the last page alone, never the ones before it.
    expect(pagesTouched(200, 99_980, 99_999)).toEqual([499]);
    expect(pagesTouched(200, 0, 30, 99_999)).toEqual([499]);
    expect(pagesTouched(200, 400, 430, 410)).toEqual([2]);
    expect(pagesTouched(100, 0, -1)).toEqual([]);
  });

  it('reads a row from its page once the page has come', () => {
    const rowAt = rowFromPages(
      2,
      new Map([
        [0, ['a', 'b']],
        [2, ['e', 'f']],
      ]),
    );
    expect([0, 1, 2, 3, 4, 5, 6].map(rowAt)).toEqual(['a', 'b', undefined, undefined, 'e', 'f', undefined]);
  });
});
