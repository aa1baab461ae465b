/**
 * Help from the header: what the desktop app's Help menu and its About box say, for the browser too (which
 * has neither): the version, the keyboard shortcuts, and the way to the search syntax card and the welcome.
 */
import type { MouseEvent } from 'react';
import { Dialog } from '../components/Dialog';

const SHORTCUTS: [keys: string[], does: string][] = [
  [['?'], 'Opens the search syntax card (outside a text field).'],
  [['/'], 'Goes to the filter of the Shelf, or the search box of the Library.'],
  [['↑', '↓'], 'Move between handles on the Shelf, reports in a menu, and rows of the Library.'],
  [['Page Up', 'Page Down', 'Home', 'End'], 'Move by a page, or to the first or last row, in those lists.'],
  [['Enter'], 'Opens the handle or report the list is on.'],
  [['Space'], 'Ticks or unticks the report in a menu.'],
  [['↓'], 'From the Library search box, to its results.'],
  [['Esc'], 'Closes a dialog, such as this one.'],
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
    <Dialog title="Help" open={props.open} onClose={props.onClose}>
      <p data-testid="help-version">
        Intel Desk {props.version ?? ''}
        {props.demo ? ', demo' : ''} ({props.mode === 'electron' ? 'desktop app' : 'in the browser'}).
      </p>
      <h3>Keyboard shortcuts</h3>
      <table className="menu-table help-keys" aria-label="Keyboard shortcuts">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">What they do</th>
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
          Search syntax
        </button>
        <button type="button" onClick={(event) => closeThen(event, props.onWelcome)}>
          Show the welcome
        </button>
        <button type="button" className="primary" onClick={props.onClose} data-autofocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}
