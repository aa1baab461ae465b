/**
 * Settings → Library's restore from a file, in the real electron/main.ts against the stand-in: main shows the
 * dialog and hands core the chosen file; the page gets a one-time token and can never name a path itself.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { copyFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { APP_ORIGIN, PICK_BACKUP_CHANNEL } from '../../electron/channel';
import type { InvokeEvent } from './fake-electron';
import { cleanup, launchOpened, makeFolders, type FakeElectron, type Folders } from './launch';
import { callCore, type FakeWindow } from './window-call';

vi.mock('electron', () => import('./fake-electron'));

let folders: Folders;
beforeEach(() => {
  folders = makeFolders();
});
afterEach(() => cleanup(folders));

type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

function pickFrom(electron: FakeElectron, event: InvokeEvent): Promise<Answer> {
  const handler = electron.ipcMain.handlers.get(PICK_BACKUP_CHANNEL);
  if (!handler) throw new Error('main registered no file dialog handler');
  return handler(event) as Promise<Answer>;
}
const fromWindow = (window: FakeWindow): InvokeEvent => ({
  sender: window.webContents,
  senderFrame: window.webContents.mainFrame,
});

describe('restoring from a file the person chose', () => {
  it('opens the dialog in backups/, and restores the chosen file by a token spent once', async () => {
    const { electron, window } = await launchOpened(folders);
    const taken = (await callCore(electron, window, 'library.backup', {})) as { file: string };
    const folder = path.dirname(taken.file);

    electron.fake.openDialogFile = null;
    expect(await pickFrom(electron, fromWindow(window))).toEqual({ ok: true, value: null });
    expect(electron.dialog.openDialogs[0]).toMatchObject({ defaultPath: folder, properties: ['openFile'] });

    const elsewhere = path.join(folders.root, 'from-a-stick.db');
    copyFileSync(taken.file, elsewhere);
    electron.fake.openDialogFile = elsewhere;
    const answer = await pickFrom(electron, fromWindow(window));
    expect(answer).toMatchObject({ ok: true, value: { file: elsewhere, outsideBackups: true } });
    const { picked } = (answer as { value: { picked: string } }).value;
    // Outside backups/, the page must have asked the person first; the token stays for that.
    await expect(callCore(electron, window, 'library.restore', { picked })).rejects.toThrow(
      /backup_outside_unconfirmed .*outside the backups folder/,
    );
    const restored = await callCore(electron, window, 'library.restore', { picked, confirmedOutside: true });
    expect(restored).toMatchObject({ file: elsewhere, reports: 0 });
    await expect(
      callCore(electron, window, 'library.restore', { picked, confirmedOutside: true }),
    ).rejects.toThrow(/backup_pick_unknown/);
    expect(readdirSync(folder).some((name) => name.endsWith('-restore.db'))).toBe(true);
  });

  it('gives the page no way to name a path, and no dialog to another frame', async () => {
    const { electron, window } = await launchOpened(folders);
    await expect(
      callCore(electron, window, 'library.pickRestoreFile', { file: '/etc/passwd' }),
    ).rejects.toThrow(/forbidden/);
    await expect(callCore(electron, window, 'library.restore', { from: '/etc/passwd' })).rejects.toThrow(
      /invalid_input/,
    );
    electron.fake.openDialogFile = '/etc/passwd';
    const contents = window.webContents;
    const foreign = await pickFrom(electron, {
      sender: contents,
      senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: contents.mainFrame },
    } as InvokeEvent);
    expect(foreign).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(electron.dialog.openDialogs).toEqual([]);
  });
});
