/**
 * Whether the real electron/main.ts looks for updates (against the stand-in Electron): never from a checkout,
 * and a package that names no feed says so once in the log, with no dialog until Help → Check for Updates.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cleanup, launchOpened, makeFolders, type Folders } from './launch';

vi.mock('electron', () => import('./fake-electron'));

let folders: Folders;
beforeEach(() => {
  folders = makeFolders();
});
afterEach(() => cleanup(folders));

const mainLog = () => readFileSync(path.join(folders.profile, 'logs', 'main.log'), 'utf8');

describe('automatic updates in the app', () => {
  const checkForUpdates = (electron: Awaited<ReturnType<typeof launchOpened>>['electron']) =>
    electron.Menu.applicationMenu?.template
      .find((m) => m.role === 'help')
      ?.submenu?.find((i) => i.label === 'Check for Updates…')
      ?.click?.();

  it('are off in a development build, and Help → Check for Updates says so', async () => {
    const { electron } = await launchOpened(folders);
    await vi.waitFor(() => expect(mainLog()).toContain('Updates: off in a development build.'));
    checkForUpdates(electron);
    await vi.waitFor(() => expect(electron.dialog.messageBoxes).toHaveLength(1));
    expect(electron.dialog.messageBoxes[0]).toMatchObject({
      title: 'Check for Updates',
      message: 'Updates are off in a copy run from a checkout.',
    });
  });

  it('are one log line, and no dialog, in a package that names no feed', async () => {
    const { electron } = await launchOpened(folders, { before: (e) => (e.app.isPackaged = true) });
    await vi.waitFor(() =>
      expect(mainLog()).toContain(
        'Updates: this copy names no update feed, so it does not look for updates.',
      ),
    );
    expect(electron.dialog.messageBoxes).toEqual([]);
    expect(electron.dialog.errorBoxes).toEqual([]);
    checkForUpdates(electron);
    await vi.waitFor(() => expect(electron.dialog.messageBoxes).toHaveLength(1));
    expect(electron.dialog.messageBoxes[0]).toMatchObject({
      message: 'This copy of Intel Desk cannot look for updates.',
    });
  });
});
