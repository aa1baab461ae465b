/** A query that does not parse: core's message under the search box, and the query with a caret under the column. */
import { errorMessage, refusalDetails } from '../rpc/client';

export function SearchSyntaxError(props: { error: unknown; query: string }) {
  const where = refusalDetails(props.error, 'search_syntax');
  if (!where) return null;
  const characters = [...props.query];
  return (
    <div className="search-error" data-testid="search-error">
      <p className="error-text" role="alert">
        {errorMessage(props.error)}
      </p>
      <pre className="search-caret" aria-hidden="true">
        {characters.join('')}
        {'\n'}
        {' '.repeat(where.column - 1)}
        <span className="caret">{'^'.repeat(where.length)}</span>
      </pre>
    </div>
  );
}
