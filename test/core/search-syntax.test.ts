/** The library's query language: the tree each construct parses to, its SQL, and errors that name a column. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileSearch } from '../../src/core/library/search-compile';
import { MAX_DEPTH, parseQuery } from '../../src/core/library/search-syntax';
import { DeskError } from '../../src/core/base/errors';
import { seeded } from './property-seed';

function syntaxErrorOf(text: string, prefixLast = false): DeskError {
  try {
    parseQuery(text, { prefixLast });
  } catch (error) {
    if (error instanceof DeskError) return error;
    throw error;
  }
  throw new Error(`"${text}" parsed`);
}

describe('query language', () => {
  it('parses words, phrases, prefixes, qualifiers and comparisons side by side as AND', () => {
    expect(parseQuery('Régulation "supply chain" batt* handle:@Ada_1 posts>=100 sentiment<-0.2')).toEqual({
      kind: 'and',
      children: [
        { kind: 'text', words: ['regulation'], prefix: false },
        { kind: 'text', words: ['supply', 'chain'], prefix: false },
        { kind: 'text', words: ['batt'], prefix: true },
        { kind: 'field', field: 'handle', value: 'ada_1', prefix: false },
        { kind: 'compare', metric: 'posts', op: '>=', value: 100 },
        { kind: 'compare', metric: 'sentiment', op: '<', value: -0.2 },
      ],
    });
    expect(
      parseQuery('model:"Claude 3" topic:energy* tag:Urgent note:call after:2026-01-31 before:2026-03-01'),
    ).toEqual({
      kind: 'and',
      children: [
        { kind: 'field', field: 'model', value: 'claude 3', prefix: false },
        { kind: 'field', field: 'topic', value: 'energy', prefix: true },
        { kind: 'field', field: 'tag', value: 'urgent', prefix: false },
        { kind: 'field', field: 'note', value: 'call', prefix: false },
        { kind: 'date', field: 'after', day: '2026-01-31' },
        { kind: 'date', field: 'before', day: '2026-03-01' },
      ],
    });
    expect(parseQuery('   ')).toBeNull();
  });

  it('gives NOT over AND over OR, with parentheses to group', () => {
    const word = (w: string) => ({ kind: 'text', words: [w], prefix: false });
    expect(parseQuery('a OR b c AND NOT d')).toEqual({
      kind: 'or',
      children: [
        word('a'),
        { kind: 'and', children: [word('b'), word('c'), { kind: 'not', child: word('d') }] },
      ],
    });
    expect(parseQuery('(a OR b) NOT NOT c')).toEqual({
      kind: 'and',
      children: [{ kind: 'or', children: [word('a'), word('b')] }, word('c')],
    });
    // Lower-case and/or/not are words, as a person writes them in a sentence.
    expect(parseQuery('war and peace')).toMatchObject({
      kind: 'and',
      children: [word('war'), word('and'), word('peace')],
    });
  });

  it('lets a bare last word match as a prefix while typing, and only then', () => {
    expect(parseQuery('supply cha', { prefixLast: true })).toMatchObject({
      children: [
        { words: ['supply'], prefix: false },
        { words: ['cha'], prefix: true },
      ],
    });
    expect(parseQuery('supply cha ', { prefixLast: true })).toMatchObject({
      children: [{}, { prefix: false }],
    });
    expect(parseQuery('supply cha')).toMatchObject({ children: [{}, { prefix: false }] });
    // An unclosed quote is a phrase still being typed in the app; on the command line it is an error.
    expect(parseQuery('"supply ch', { prefixLast: true })).toEqual({
      kind: 'text',
      words: ['supply', 'ch'],
      prefix: false,
    });
    expect(syntaxErrorOf('"supply ch').message).toBe('Unclosed quote at column 1: add a closing ".');
  });

  it('names the column of each syntax error', () => {
    const cases: [string, string, number, number][] = [
      ['energy OR (oil)) x', 'Unexpected ")" at column 16: it closes no "(".', 16, 1],
      ['(energy OR oil', 'Unclosed "(" at column 1: add a ")" after what it groups.', 1, 1],
      ['energy OR', 'The search ends too soon: expected a search term at column 10.', 10, 1],
      ['NOT', 'The search ends too soon: expected a term after NOT at column 4.', 4, 1],
      ['a AND OR b', 'Unexpected "OR" at column 7: expected a search term.', 7, 2],
      ['()', 'Unexpected ")" at column 2: expected a search term inside ( ).', 2, 1],
      [
        'colour:red',
        'Unknown qualifier "colour:" at column 1: use one of handle: model: topic: tag: note: after: before:.',
        1,
        7,
      ],
      ['likes>lots', 'Expected a number after "likes>" at column 7.', 7, 4],
      [
        'mood<0',
        'Unknown figure "mood" at column 1: compare one of posts, sentiment, likes, reposts, replies, spent.',
        1,
        4,
      ],
      [
        'after:2026-02-30',
        '"2026-02-30" after "after:" at column 7 is not a date: there is no 30 February (February 2026 has 28 days).',
        7,
        10,
      ],
      [
        'before:2026-13-01',
        '"2026-13-01" after "before:" at column 8 is not a date: there is no month 13 (months run from 01 to 12).',
        8,
        10,
      ],
      ['after:2026-1-01', 'Expected a date as YYYY-MM-DD after "after:" at column 7.', 7, 9],
      ['handle: ada', 'Expected a value right after "handle:" at column 1.', 1, 7],
      ['x ""', 'Empty quotes at column 3: put words between them.', 3, 2],
      [
        'a > 3',
        'Unknown figure "a" at column 1: compare one of posts, sentiment, likes, reposts, replies, spent.',
        1,
        1,
      ],
      ['= 3', 'Unexpected "=" at column 1: expected a search term.', 1, 1],
    ];
    for (const [text, message, column, length] of cases) {
      const error = syntaxErrorOf(text);
      expect(error.code, text).toBe('search_syntax');
      expect(error.kind).toBe('usage');
      expect(error.message, text).toBe(message);
      expect(error.details, text).toEqual({ column, length });
    }
  });

  it('counts columns in characters a person sees, not UTF-16 units', () => {
    const error = syntaxErrorOf('🦊 Kraków ) x');
    expect(error.message).toBe('Unexpected ")" at column 10: it closes no "(".');
    expect(parseQuery('日本語 Ωmega')).toMatchObject({
      children: [{ words: ['日本語'] }, { words: ['ωmega'] }],
    });
  });

  it('refuses hostile input with a message, never a crash: long, deep, many terms, stray quotes', () => {
    expect(syntaxErrorOf('x'.repeat(5_000)).message).toMatch(
      /too long: at most 1000 characters; column 1001/,
    );
    expect(syntaxErrorOf('('.repeat(200) + 'a' + ')'.repeat(200)).message).toMatch(
      new RegExp(`nests too deeply at column ${MAX_DEPTH + 2}`),
    );
    expect(syntaxErrorOf('NOT '.repeat(40) + 'a').message).toMatch(/nests too deeply/);
    expect(syntaxErrorOf(Array.from({ length: 70 }, (_, i) => `w${i}`).join(' ')).message).toMatch(
      /Too many terms: at most 64/,
    );
    expect(syntaxErrorOf('a " b " c "').message).toBe('Unclosed quote at column 11: add a closing ".');
    // Punctuation alone searches for nothing; with a word it is left out, as the index leaves it out.
    expect(compileSearch(parseQuery('- & ^'))).toBeNull();
    expect(compileSearch(parseQuery('NEAR (a b) ^x'))?.match).toBe('("near" AND "a" AND "b" AND "x")');
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.boolean(), (text, prefixLast) => {
        try {
          parseQuery(text, { prefixLast });
        } catch (error) {
          expect(error).toBeInstanceOf(DeskError);
          expect((error as DeskError).message).toMatch(/column \d+/);
        }
      }),
      seeded(500),
    );
  });

  it('compiles words to one ranking FTS5 match and the rest to bound SQL conditions', () => {
    expect(compileSearch(parseQuery('energy "oil price" gas* NOT coal'))).toMatchObject({
      match: '("energy" AND "oil price" AND "gas"*) NOT "coal"',
      where: [],
      terms: { prefixes: ['gas'], phrases: [['energy'], ['oil', 'price']] },
    });
    const mixed = compileSearch(parseQuery('energy (tag:x OR coal) NOT handle:ada posts>10 spent<=0.5'))!;
    expect(mixed.match).toBe('("energy")');
    expect(mixed.where).toHaveLength(4);
    expect(mixed.where[0]).toContain('report_tags');
    expect(mixed.where[0]).toContain('snapshot_search MATCH @');
    expect(Object.values(mixed.params)).toEqual(['x', '"coal"', 'ada', 10, 500_000n]);
    // A NOT alone cannot be an FTS5 match: it becomes a condition and the newest reports come first.
    expect(compileSearch(parseQuery('NOT coal'))).toMatchObject({
      match: null,
      where: [expect.stringMatching(/^NOT \(s\.text_id IN/)],
    });
  });
});
