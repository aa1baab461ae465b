/** Help from the header (HelpDialog.tsx): the version, the keyboard shortcuts and the way to the rest. */
import { catalogue } from './catalogue';

export const HELP_TEXT = {
  title: 'Help',
  version: 'Intel Desk {version}{demo} ({mode}).',
  demo: ', demo',
  desktopApp: 'desktop app',
  inBrowser: 'in the browser',
  shortcuts: 'Keyboard shortcuts',
  keys: 'Keys',
  does: 'What they do',
  pageUp: 'Page Up',
  pageDown: 'Page Down',
  home: 'Home',
  end: 'End',
  enter: 'Enter',
  space: 'Space',
  esc: 'Esc',
  syntaxKey: 'Opens the search syntax card (outside a text field).',
  filterKey: 'Goes to the filter of the Shelf, or the search box of the Library.',
  arrowKeys: 'Move between handles on the Shelf, reports in a menu, and rows of the Library.',
  pageKeys: 'Move by a page, or to the first or last row, in those lists.',
  enterKey: 'Opens the handle or report the list is on.',
  spaceKey: 'Ticks or unticks the report in a menu.',
  downKey: 'From the Library search box, to its results.',
  escKey: 'Closes a dialog, such as this one.',
  searchSyntax: 'Search syntax',
  showWelcome: 'Show the welcome',
  close: 'Close',
} as const;

export const helpText = catalogue(HELP_TEXT);
