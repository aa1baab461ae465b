/**
 * Help from the header: what the desktop app's Help menu and its About box say, for the browser too (which
 * has neither): the version, the keyboard shortcuts, and the way to the search syntax card and the welcome.
 */
import type { MouseEvent } from 'react';
import { Dialog } from '../components/Dialog';
import { helpText as t } from '../text/help';

const SHORTCUTS: [keys: string[], does: string][] = [
  [['?'], t('syntaxKey')],
  [['/'], t('filterKey')],
  [['↑', '↓'], t('arrowKeys')],
  [[t('pageUp'), t('pageDown'), t('home'), t('end')], t('pageKeys')],
  [[t('enter')], t('enterKey')],
  [[t('space')], t('spaceKey')],
  [['↓'], t('downKey')],
  [[t('esc')], t('escKey')],
];

/**
 * Closes this dialog before `then` opens what comes next: while it is modal the rest of the page is inert, so
 * the welcome could not take focus, and closing it later would give focus back to the Help button.
 */
function closeThen(event: MouseEvent<HTMLButtonElement>, then: () => void): void {
  event.currentTarget.closest('dialog')?.close();
  then();
}

export function HelpDialog(props: {
  open: boolean;
  version: string | undefined;
  demo: boolean;
  mode: 'electron' | 'browser';
  onClose(): void;
  onSyntax(): void;
  onWelcome(): void;
}) {
  return (
    <Dialog title={t('title')} open={props.open} onClose={props.onClose}>
      <p data-testid="help-version">
        {t('version', {
          version: props.version ?? '',
          demo: props.demo ? t('demo') : '',
          mode: props.mode === 'electron' ? t('desktopApp') : t('inBrowser'),
        })}
      </p>
      <h3>{t('shortcuts')}</h3>
      <table className="menu-table help-keys" aria-label={t('shortcuts')}>
        <thead>
          <tr>
            <th scope="col">{t('keys')}</th>
            <th scope="col">{t('does')}</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map(([keys, does]) => (
            <tr key={`${keys.join(' ')} ${does}`}>
              <td>
                {keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 ? ', ' : ''}
                    <kbd>{key}</kbd>
                  </span>
                ))}
              </td>
              <td>{does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-actions">
        <button type="button" onClick={(event) => closeThen(event, props.onSyntax)}>
          {t('searchSyntax')}
        </button>
        <button type="button" onClick={(event) => closeThen(event, props.onWelcome)}>
          {t('showWelcome')}
        </button>
        <button type="button" className="primary" onClick={props.onClose} data-autofocus>
          {t('close')}
        </button>
      </div>
    </Dialog>
  );
}
