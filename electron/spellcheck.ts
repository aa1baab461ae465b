/**
 * Spelling in the window's text fields (the dossier editor, where staff write, and notes): Chromium underlines
 * misspelt words, and a right click on one offers its suggestions and Add to Dictionary, above the usual Cut,
 * Copy and Paste. Only on macOS, whose own spellchecker Electron uses: on Windows and Linux Electron checks with
 * Hunspell dictionaries it downloads from Google's CDN, a host outside the window's security policy that the
 * desk never otherwise contacts, so there spelling is off and the downloader points at nothing (decision 0040).
 */
import { Menu, type BrowserWindow, type MenuItemConstructorOptions, type Session } from 'electron';

const MAX_SUGGESTIONS = 5;

/** Where Electron would fetch dictionaries from: a port on this computer that serves nothing (discard). */
export const NO_DICTIONARY_DOWNLOADS = 'http://127.0.0.1:9/';

/** Whether the window checks spelling on this platform: only where no dictionary is downloaded. */
export const spellcheckOn = (platform: NodeJS.Platform): boolean => platform === 'darwin';

/**
 * Off the Mac, turns the session's spellchecker off and sends its dictionary downloads nowhere: Electron
 * starts the download for the system's language when the session starts, whatever a window asks for.
 */
export function keepDictionariesLocal(
  session: Pick<Session, 'setSpellCheckerEnabled' | 'setSpellCheckerDictionaryDownloadURL'>,
  platform: NodeJS.Platform,
): void {
  if (spellcheckOn(platform)) return;
  session.setSpellCheckerEnabled(false);
  session.setSpellCheckerDictionaryDownloadURL(NO_DICTIONARY_DOWNLOADS);
}

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
