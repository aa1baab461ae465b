/**
 * A plain search that finds nothing may be a model's, topic's or handle's name, which the text of a report
 * does not hold: "claude-sonnet-4" alone matches no words, `model:"claude-sonnet-4"` matches. When the same
 * words as a field find something, the empty result offers that query, one press away.
 */
import { useQueries } from '@tanstack/react-query';
import { useRpc } from '../rpc/context';
import { rpcQueryKey } from '../rpc/query-key';
import { libraryText as t } from '../text/library';

/** Words, digits and the marks names are made of: no quotes, qualifiers, operators or comparisons. */
const PLAIN = /^[\p{L}\p{N}][\p{L}\p{N}\s._@-]*$/u;
const OPERATOR = /(^|\s)(AND|OR|NOT)(\s|$)/;

/** The field queries the same words could mean, in the order they are offered. */
export function fieldQueries(text: string): string[] {
  const words = text.trim();
  if (!PLAIN.test(words) || OPERATOR.test(words)) return [];
  const quoted = `"${words}"`;
  const single = !/\s/.test(words);
  return [`model:${quoted}`, `topic:${quoted}`, ...(single ? [`handle:${words.replace(/^@/, '')}`] : [])];
}

export function SearchHint(props: { text: string; handle: string; onUse(query: string): void }) {
  const { client } = useRpc();
  const candidates = fieldQueries(props.text);
  const answers = useQueries({
    queries: candidates.map((text) => {
      const input = { text, ...(props.handle ? { handle: props.handle } : {}), limit: 1 };
      return {
        queryKey: rpcQueryKey('library.search', input),
        queryFn: () => client.call('library.search', input),
      };
    }),
  });
  const found = candidates.find((_, index) => (answers[index]?.data?.count ?? 0) > 0);
  if (!found) return null;
  return (
    <p data-testid="search-hint">
      {t('didYouMean')}{' '}
      <button type="button" className="link" onClick={() => props.onUse(found)}>
        {found}
      </button>
      {t('hintEnd')}
    </p>
  );
}
