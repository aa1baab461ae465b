/**
 * Spelling in the window's text fields (the dossier editor, where staff write, and notes): Chromium underlines
 * misspelt words, and a right click on one offers its suggestions and Add to Dictionary, above the usual Cut,
 * Copy and Paste. On Windows and macOS the OS spellchecker is used; on Linux Chromium's own dictionaries.
 */
import { Menu, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';

const MAX_SUGGESTIONS = 5;

export function offerSpellingSuggestions(window: BrowserWindow): void {
  const contents = window.webContents;
  contents.on('context-menu', (_event, params) => {
    if (!params.isEditable) return;
    const items: MenuItemConstructorOptions[] = [];
    if (params.misspelledWord) {
      const suggestions = params.dictionarySuggestions.slice(0, MAX_SUGGESTIONS);
      for (const suggestion of suggestions)
        items.push({ label: suggestion, click: () => contents.replaceMisspelling(suggestion) });
      if (suggestions.length === 0) items.push({ label: 'No suggestions', enabled: false });
      const word = params.misspelledWord;
      items.push(
        {
          label: 'Add to Dictionary',
          click: () => contents.session.addWordToSpellCheckerDictionary(word),
        },
        { type: 'separator' },
      );
    }
    items.push(
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { type: 'separator' },
      { role: 'selectAll' },
    );
    Menu.buildFromTemplate(items).popup({ window });
  });
}
