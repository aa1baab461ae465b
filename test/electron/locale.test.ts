/** The real electron/main.ts hands the window Electron's locale (app.getLocale()) on the page address. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_ORIGIN } from '../../electron/channel';
import { cleanup, launchOpened, makeFolders, type Folders } from './launch';

vi.mock('electron', () => import('./fake-electron'));

let folders: Folders;
beforeEach(() => {
  folders = makeFolders();
});
afterEach(() => cleanup(folders));

describe('the locale', () => {
  it('is the app’s, on every load of the page, so a route change stays a fragment change', async () => {
    const { electron, window } = await launchOpened(folders, { before: (e) => (e.app.locale = 'de-DE') });
    expect(window.loadedUrl).toBe(`${APP_ORIGIN}/index.html?locale=de-DE`);
    electron.app.emit('second-instance', {}, ['intel-desk', 'intel-desk://handle/ada']);
    expect(window.loadedUrl).toBe(`${APP_ORIGIN}/index.html?locale=de-DE#/handle/ada`);
  });
});
