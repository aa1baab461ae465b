/**
 * The query language on one card (docs/search.md, src/core/library/search-syntax.ts): what to type and what it
 * finds. Opened from Help and beside the Library's search box, or with "?".
 */
import { Dialog } from '../components/Dialog';
import { helpText as t } from '../text/help';

const TERMS = (
  [
    'words',
    'phrase',
    'prefix',
    'handle',
    'model',
    'topic',
    'after',
    'before',
    'tag',
    'note',
    'posts',
    'sentiment',
    'engagement',
    'spent',
  ] as const
).map((name): [typed: string, finds: string] => [t(`${name}Typed`), t(`${name}Finds`)]);

export function QueryHelp(props: { open: boolean; onClose(): void }) {
  return (
    <Dialog title={t('searchSyntax')} open={props.open} onClose={props.onClose}>
      <table className="menu-table query-help" aria-label={t('syntaxLabel')}>
        <thead>
          <tr>
            <th scope="col">{t('youType')}</th>
            <th scope="col">{t('itFinds')}</th>
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
        {t('termsRequired')}
        <code>OR</code>
        {t('orAccepts')}
        <code>NOT</code>
        {t('notExcludes')}
        <code>{t('groupExample')}</code>
        {t('comparisons')} <code>&gt;</code> <code>&gt;=</code> <code>&lt;</code> <code>&lt;=</code>{' '}
        <code>=</code>
        {t('upperCase')}
      </p>
      <p className="muted small">
        {t('press')}
        <kbd>/</kbd>
        {t('toSearch')}
        <kbd>?</kbd>
        {t('forCard')}
        <kbd>↓</kbd>
        {t('toResults')}
      </p>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={props.onClose} data-autofocus>
          {t('close')}
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
