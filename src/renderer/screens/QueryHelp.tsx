/**
 * The query language on one card (docs/search.md, src/core/library/search-syntax.ts): what to type and what it
 * finds. Opened from Help and beside the Library's search box, or with "?".
 */
import { Dialog } from '../components/Dialog';

const TERMS: [typed: string, finds: string][] = [
  ['grid battery', 'both words, anywhere in the report (case and accents do not matter)'],
  ['"supply chain"', 'the words in that order'],
  ['regulat*', 'a word starting with regulat (in the app the last word you type is a prefix already)'],
  ['handle:ada_lindqvist', 'reports about that handle (handle:ada* for a prefix)'],
  ['model:claude*', 'reports written by that model'],
  ['topic:energy', 'reports whose topic shares include it (topic:"central banks")'],
  ['after:2026-10-01', 'created on or after that day (UTC)'],
  ['before:2026-11-01', 'created before that day'],
  ['tag:follow-up', 'reports you tagged so'],
  ['note:analyst', 'reports whose note (yours) contains that text'],
  ['posts>100', 'more than 100 posts analysed'],
  ['sentiment<0', 'mean daily sentiment below 0 (scores run from -1 to 1)'],
  ['likes>=5000  replies=0', 'by engagement: likes, reposts, replies'],
  ['spent<=0.01', 'reports that cost you at most $0.01'],
];

export function QueryHelp(props: { open: boolean; onClose(): void }) {
  return (
    <Dialog title="Search syntax" open={props.open} onClose={props.onClose}>
      <table className="menu-table query-help" aria-label="What to type">
        <thead>
          <tr>
            <th scope="col">You type</th>
            <th scope="col">It finds</th>
          </tr>
        </thead>
        <tbody>
          {TERMS.map(([typed, finds]) => (
            <tr key={typed}>
              <td>
                <code>{typed}</code>
              </td>
              <td>{finds}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        Terms side by side are all required. <code>OR</code> accepts either side, <code>NOT</code> excludes,
        and parentheses group: <code>(energy OR oil) NOT handle:ada posts&gt;50</code>. Comparisons take{' '}
        <code>&gt;</code> <code>&gt;=</code> <code>&lt;</code> <code>&lt;=</code> <code>=</code>. The
        operators are upper case.
      </p>
      <p className="muted small">
        Press <kbd>/</kbd> to search, <kbd>?</kbd> for this card, <kbd>↓</kbd> from the box to the results.
      </p>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={props.onClose} data-autofocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}

/** "?" opens the card from anywhere on the screen except a field being typed in. */
export function isHelpKey(event: KeyboardEvent): boolean {
  if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey) return false;
  const active = document.activeElement;
  // Not over another dialog (a purchase being confirmed), and not into a field.
  if (document.querySelector('dialog[open]')) return false;
  return !(active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement);
}
