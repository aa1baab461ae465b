/**
 * Library → Export as Markdown in the real electron/main.ts against the stand-in (decision 0049): main shows
 * the folder dialog and core writes the reports there; the page names a handle at most, never a path, and a
 * frame other than the desk window gets no dialog.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { APP_ORIGIN, EXPORT_FOLDER_CHANNEL } from '../../electron/channel';
import { openDeskDb } from '../../src/core/db/open';
import { SnapshotStore } from '../../src/core/library/snapshots';
import type { IntelReportSnapshot } from '../../src/shared/wire';
import type { InvokeEvent } from './fake-electron';
import { cleanup, launchOpened, makeFolders, type FakeElectron, type Folders } from './launch';
import { callCore, type FakeWindow } from './window-call';

vi.mock('electron', () => import('./fake-electron'));

let folders: Folders;
beforeEach(() => {
  folders = makeFolders();
  mkdirSync(folders.dataDir, { recursive: true });
  const { db } = openDeskDb(path.join(folders.dataDir, 'desk.db'));
  const store = new SnapshotStore(db);
  const report = (id: string): IntelReportSnapshot => ({
    id,
    createdAt: '2026-11-01T00:00:00.000Z',
    model: 'm',
    synthesisSettings: {},
    meta: { postCount: 1, dateRange: null },
    analytics: {},
    narrative: { summary: id },
    changeSummary: null,
    previousReportId: null,
  });
  const put = (handle: string, id: string) =>
    store.put(
      'http://127.0.0.1:8402',
      handle,
      [{ snapshot: report(id), raw: JSON.stringify(report(id)) }],
      null,
      '2026-11-02T00:00:00.000Z',
    );
  db.transaction(() => {
    put('alice', 'rpt_a');
    put('bob', 'rpt_b');
  })();
  db.close();
});
afterEach(() => cleanup(folders));

type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

function askExport(electron: FakeElectron, event: InvokeEvent, ask: unknown): Promise<Answer> {
  const handler = electron.ipcMain.handlers.get(EXPORT_FOLDER_CHANNEL);
  if (!handler) throw new Error('main registered no folder dialog handler');
  return (handler as (event: InvokeEvent, ask: unknown) => Promise<Answer>)(event, ask);
}
const fromWindow = (window: FakeWindow): InvokeEvent => ({
  sender: window.webContents,
  senderFrame: window.webContents.mainFrame,
});

describe('exporting the library to a folder the person chose', () => {
  it('writes a handle’s reports, or the library’s, where the dialog says; nothing when cancelled', async () => {
    const { electron, window } = await launchOpened(folders);
    electron.fake.openDialogFile = null;
    expect(await askExport(electron, fromWindow(window), {})).toEqual({ ok: true, value: null });
    expect(electron.dialog.openDialogs[0]).toMatchObject({
      properties: ['openDirectory', 'createDirectory'],
    });

    const vault = path.join(folders.root, 'vault');
    electron.fake.openDialogFile = vault;
    expect(await askExport(electron, fromWindow(window), { handle: 'alice' })).toEqual({
      ok: true,
      value: { dir: vault, reports: 1, handles: 1 },
    });
    expect(readdirSync(vault)).toEqual(['alice']);
    expect(await askExport(electron, fromWindow(window), {})).toMatchObject({
      ok: true,
      value: { reports: 2 },
    });
    expect(readdirSync(vault).sort()).toEqual(['alice', 'bob']);
  });

  it('gives the page no way to name a path, and no dialog to another frame', async () => {
    const { electron, window } = await launchOpened(folders);
    const target = path.join(folders.root, 'page-chose');
    await expect(callCore(electron, window, 'library.exportFolder', { dir: target })).rejects.toThrow(
      /forbidden/,
    );
    electron.fake.openDialogFile = target;
    expect(await askExport(electron, fromWindow(window), { dir: '/tmp/x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    const contents = window.webContents;
    const foreign = await askExport(
      electron,
      {
        sender: contents,
        senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: contents.mainFrame },
      } as InvokeEvent,
      {},
    );
    expect(foreign).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(electron.dialog.openDialogs).toEqual([]);
    expect(existsSync(target)).toBe(false);
  });
});
