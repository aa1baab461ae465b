/**
 * The real electron/main.ts against the stand-in Electron: minidumps kept locally and the log folder saying
 * where, crashed or unloadable windows logged and offered a reload, helper-process deaths and the page's
 * console errors in main.log, and spelling: checked on macOS only, no dictionary ever downloaded.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fakeEvent } from './fake-electron';
import { cleanup, launchOpened, makeFolders, type Folders } from './launch';
import { keepDictionariesLocal, NO_DICTIONARY_DOWNLOADS, spellcheckOn } from '../../electron/spellcheck';

vi.mock('electron', () => import('./fake-electron'));

let folders: Folders;
beforeEach(() => {
  folders = makeFolders();
});
afterEach(() => cleanup(folders));

const logsDir = () => path.join(folders.profile, 'logs');
const mainLog = () => readFileSync(path.join(logsDir(), 'main.log'), 'utf8');

describe('crash reports', () => {
  it('are kept locally, never uploaded, and the log folder says where', async () => {
    const { electron } = await launchOpened(folders);
    expect(electron.crashReporter.started).toEqual([{ uploadToServer: false }]);
    const dumps = path.join(folders.profile, 'Crashpad');
    expect(readFileSync(path.join(logsDir(), 'README.txt'), 'utf8')).toContain(
      `Crash reports (minidumps) are kept on this computer only, in ${dumps}`,
    );
    expect(mainLog()).toContain(`Crash reports are kept locally in ${dumps}, never uploaded.`);
  });
});

describe('a window that dies', () => {
  it('is logged and offered a reload, which reloads it', async () => {
    const { electron, window } = await launchOpened(folders);
    window.webContents.emit('render-process-gone', fakeEvent(), { reason: 'crashed', exitCode: 11 });
    await vi.waitFor(() => expect(window.webContents.reloads).toBe(1));
    expect(electron.dialog.messageBoxes).toHaveLength(1);
    expect(electron.dialog.messageBoxes[0]).toMatchObject({
      message: 'The Intel Desk window stopped working.',
      buttons: ['Reload', 'Close Window'],
    });
    expect(mainLog()).toContain("The window's renderer process ended: crashed (exit code 11)");
  });

  it('closes instead when the person chooses so, and a clean exit asks nothing', async () => {
    const { electron, window } = await launchOpened(folders);
    window.webContents.emit('render-process-gone', fakeEvent(), { reason: 'clean-exit', exitCode: 0 });
    expect(electron.dialog.messageBoxes).toHaveLength(0);
    electron.fake.messageBoxResponse = 1;
    window.webContents.emit('render-process-gone', fakeEvent(), { reason: 'oom', exitCode: 0 });
    await vi.waitFor(() => expect(window.isDestroyed()).toBe(true));
    expect(window.webContents.reloads).toBe(0);
  });

  it('offers one reload at a time however often it dies', async () => {
    const { electron, window } = await launchOpened(folders);
    for (let i = 0; i < 3; i++)
      window.webContents.emit('render-process-gone', fakeEvent(), { reason: 'crashed', exitCode: 1 });
    await vi.waitFor(() => expect(window.webContents.reloads).toBe(1));
    expect(electron.dialog.messageBoxes).toHaveLength(1);
  });

  it('logs a failed load and offers a reload for the main frame only; an aborted load is no failure', async () => {
    const { electron, window } = await launchOpened(folders);
    const contents = window.webContents;
    contents.emit('did-fail-load', fakeEvent(), -3, 'ERR_ABORTED', 'app://desk/index.html', true);
    contents.emit('did-fail-load', fakeEvent(), -6, 'ERR_FILE_NOT_FOUND', 'app://desk/frame.html', false);
    expect(electron.dialog.messageBoxes).toHaveLength(0);
    contents.emit('did-fail-load', fakeEvent(), -6, 'ERR_FILE_NOT_FOUND', 'app://desk/index.html', true);
    await vi.waitFor(() => expect(contents.reloads).toBe(1));
    expect(electron.dialog.messageBoxes[0]).toMatchObject({
      message: 'The Intel Desk window could not load.',
    });
    const log = mainLog();
    expect(log).toContain('could not load app://desk/frame.html: ERR_FILE_NOT_FOUND (-6)');
    expect(log).not.toContain('ERR_ABORTED');
  });
});

describe('main.log', () => {
  it('gets helper processes that end and the page’s console errors and warnings, not its chatter', async () => {
    const { electron, window } = await launchOpened(folders);
    electron.app.emit('child-process-gone', fakeEvent(), {
      type: 'GPU',
      reason: 'crashed',
      exitCode: 139,
      name: 'GPU',
    });
    const message = (level: string, text: string) =>
      Object.assign(fakeEvent(), {
        level,
        message: text,
        lineNumber: 7,
        sourceId: 'app://desk/assets/app.js',
      });
    window.webContents.emit('console-message', message('error', 'Uncaught TypeError: boom'));
    window.webContents.emit('console-message', message('warning', 'slow query'));
    window.webContents.emit('console-message', message('info', 'rendered shelf'));
    window.webContents.emit('console-message', message('error', 'two\n2026-01-01T00:00:00.000Z info forged'));
    const log = mainLog();
    expect(log).toContain('error A helper process (GPU) ended: crashed (exit code 139)');
    expect(log).toContain(
      "error The window's console error: Uncaught TypeError: boom (app://desk/assets/app.js:7)",
    );
    expect(log).toContain("info The window's console warning: slow query");
    expect(log).not.toContain('rendered shelf');
    expect(log).toContain("The window's console error: two\\n2026-01-01T00:00:00.000Z info forged");
    expect(log).not.toMatch(/^2026-01-01T00:00:00.000Z info forged/m);
  });
});

describe('spelling', () => {
  it("fetches no dictionary from Google's CDN: off, with downloads sent nowhere, except on macOS", async () => {
    const { electron, window } = await launchOpened(folders);
    const mac = process.platform === 'darwin';
    expect(window.options.webPreferences?.['spellcheck']).toBe(mac);
    expect(electron.session.defaultSession.spellCheckerEnabled).toBe(mac);
    expect(electron.session.defaultSession.dictionaryDownloadUrl).toBe(mac ? null : NO_DICTIONARY_DOWNLOADS);
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const calls: string[] = [];
      keepDictionariesLocal(
        {
          setSpellCheckerEnabled: (enabled) => void calls.push(`enabled ${enabled}`),
          setSpellCheckerDictionaryDownloadURL: (url) => void calls.push(`download ${url}`),
        },
        platform,
      );
      expect(calls, platform).toEqual(
        platform === 'darwin' ? [] : ['enabled false', 'download http://127.0.0.1:9/'],
      );
      expect(spellcheckOn(platform), platform).toBe(platform === 'darwin');
    }
  });

  it('offers suggestions for a misspelt word on a right click where it is checked', async () => {
    const { electron, window } = await launchOpened(folders);
    const contents = window.webContents;
    const params = (extra: Record<string, unknown>) => ({
      isEditable: true,
      misspelledWord: '',
      dictionarySuggestions: [],
      ...extra,
    });
    contents.emit('context-menu', fakeEvent(), params({ isEditable: false }));
    expect(electron.Menu.popups).toHaveLength(0);
    contents.emit(
      'context-menu',
      fakeEvent(),
      params({ misspelledWord: 'recieve', dictionarySuggestions: ['receive', 'relieve'] }),
    );
    const [menu] = electron.Menu.popups;
    expect(menu?.map((item) => item.label ?? item.role ?? item.type)).toEqual([
      'receive',
      'relieve',
      'Add to Dictionary',
      'separator',
      'cut',
      'copy',
      'paste',
      'separator',
      'selectAll',
    ]);
    menu?.[0]?.click?.();
    menu?.[2]?.click?.();
    expect(contents.replacements).toEqual(['receive']);
    expect(contents.session.dictionary).toEqual(['recieve']);
    contents.emit('context-menu', fakeEvent(), params({}));
    expect(electron.Menu.popups[1]?.map((item) => item.role ?? item.type)).toEqual([
      'cut',
      'copy',
      'paste',
      'separator',
      'selectAll',
    ]);
  });
});
