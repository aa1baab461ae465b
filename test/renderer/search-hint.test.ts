/** The field queries a plain search that found nothing is offered as, and the searches that get none. */
import { describe, expect, it } from 'vitest';
import { fieldQueries } from '../../src/renderer/screens/SearchHint';

describe('fieldQueries', () => {
  it('offers a model, a topic and, for one word, a handle', () => {
    expect(fieldQueries('claude-sonnet-4')).toEqual([
      'model:"claude-sonnet-4"',
      'topic:"claude-sonnet-4"',
      'handle:claude-sonnet-4',
    ]);
    expect(fieldQueries(' central banks ')).toEqual(['model:"central banks"', 'topic:"central banks"']);
    expect(fieldQueries('@ada_lindqvist')).toEqual([]);
    expect(fieldQueries('ada_lindqvist')).toContain('handle:ada_lindqvist');
  });

  it('offers nothing for a query that already uses the language', () => {
    for (const text of ['model:gpt', '"supply chain"', 'energy OR oil', 'posts>5', 'regulat*', '(grid)', ''])
      expect(fieldQueries(text), text).toEqual([]);
  });
});
