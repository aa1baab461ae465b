/**
 * Whether the real electron/main.ts looks for updates (against the stand-in Electron): never from a checkout,
 * and a package that names no feed says so once in the log, with no dialog.
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
  it('are off in a development build', async () => {
    await launchOpened(folders);
    await vi.waitFor(() => expect(mainLog()).toContain('Updates: off in a development build.'));
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
  });
});
