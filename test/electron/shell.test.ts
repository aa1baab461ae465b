/**
 * Desktop conventions of the real electron/main.ts, against the recording stand-in: the application menu,
 * one process per data folder, the window's place remembered, the log file, and an error dialog naming that
 * file instead of a silent exit.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { version } from '../../package.json';
import { RPC_CHANNEL } from '../../electron/channel';
import type { MenuItem } from './fake-electron';
import { cleanup, launch, launchOpened, makeFolders, type Folders, type LaunchOptions } from './launch';
import { DeskWallet } from '../../src/core/wallet/wallet';

vi.mock('electron', () => import('./fake-electron'));

// anvil's well-known first test key
const DEMO_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

let folders: Folders;
beforeEach(() => {
  folders = makeFolders();
});
afterEach(() => cleanup(folders));

const opened = (options: LaunchOptions = {}) => launchOpened(folders, options);

const roles = (items: MenuItem[] | undefined) => (items ?? []).filter((i) => i.role).map((i) => i.role);

describe('the application menu', () => {
  it('has Edit with the standard roles, View zoom, Window and Help', async () => {
    const { electron } = await opened();
    const menu = electron.Menu.applicationMenu?.template ?? [];
    const edit = menu.find((m) => m.label === 'Edit');
    // Without these roles macOS has no copy, paste, undo or select-all shortcuts in any text field.
    expect(roles(edit?.submenu)).toEqual([
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'pasteAndMatchStyle',
      'delete',
      'selectAll',
    ]);
    const view = menu.find((m) => m.label === 'View');
    expect(roles(view?.submenu)).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
    expect(menu.map((m) => m.role ?? m.label)).toEqual(
      process.platform === 'darwin'
        ? ['appMenu', 'fileMenu', 'Edit', 'View', 'windowMenu', 'help']
        : ['fileMenu', 'Edit', 'View', 'windowMenu', 'help'],
    );
  });

  it('Help shows the version of package.json and opens the folder that holds the log', async () => {
    const { electron } = await opened();
    const help = electron.Menu.applicationMenu?.template.find((m) => m.role === 'help');
    const item = (label: string) => help?.submenu?.find((i) => i.label === label);
    expect(help?.submenu?.map((i) => i.label)).toEqual([
      'About Intel Desk',
      'Third-Party Notices',
      'Check for Updates…',
      'Open Logs Folder',
    ]);
    item('About Intel Desk')?.click?.();
    const about = await electron.fake.messageBoxShown;
    expect(about['message']).toBe(`Intel Desk ${version}`);
    expect(electron.app.aboutPanel).toMatchObject({ applicationVersion: version });
    item('Open Logs Folder')?.click?.();
    const folder = await electron.fake.pathOpened;
    expect(folder).toBe(path.join(folders.profile, 'logs'));
    expect(readFileSync(path.join(folder, 'main.log'), 'utf8')).toContain(`Intel Desk ${version} starting`);
  });
});

describe('one process per data folder', () => {
  it('keys the single-instance lock on the data folder', async () => {
    const { electron } = await opened();
    expect(electron.app.lockedProfile).toBe(folders.profile);
  });

  it('a second launch that does not get the lock quits without opening desk.db or a window', async () => {
    const electron = await launch(folders, { lock: false });
    await electron.fake.quitted;
    expect(electron.fake.windows).toHaveLength(0);
    expect(electron.ipcMain.handlers.has(RPC_CHANNEL)).toBe(false);
    expect(existsSync(path.join(folders.dataDir, 'desk.db'))).toBe(false);
  });

  it('the first instance brings its window forward when a second is launched', async () => {
    const { electron, window } = await opened();
    window.emit('ready-to-show');
    window.minimize();
    window.calls.length = 0;
    electron.app.emit('second-instance', {}, ['intel-desk'], folders.root);
    expect(window.calls).toEqual(['restore', 'show', 'focus']);
    expect(window.minimized).toBe(false);
    expect(window.focused).toBe(true);
  });
});

describe('the window’s place', () => {
  it('opens centred at the default size, and where it was left the next time', async () => {
    const first = await opened();
    expect(first.window.bounds).toEqual({ x: 320, y: 95, width: 1280, height: 860 });
    first.window.setBounds({ x: 100, y: 40, width: 1000, height: 700 });
    first.window.maximize();
    first.electron.app.quit();
    await first.electron.fake.quitted;
    const saved = JSON.parse(readFileSync(path.join(folders.profile, 'window-state.json'), 'utf8'));
    expect(saved).toEqual({ x: 100, y: 40, width: 1000, height: 700, maximized: true });

    const second = await opened();
    expect(second.window.bounds).toEqual({ x: 100, y: 40, width: 1000, height: 700 });
    expect(second.window.maximized).toBe(true);
  });

  it('a window left on a display that is gone opens on the primary one, shrunk to fit', async () => {
    mkdirSync(folders.profile, { recursive: true });
    writeFileSync(
      path.join(folders.profile, 'window-state.json'),
      JSON.stringify({ x: 2400, y: 100, width: 1600, height: 1000, maximized: false }),
    );
    const { window } = await opened({
      before: (electron) => {
        electron.screen.primary = { x: 0, y: 25, width: 1366, height: 743 };
      },
    });
    expect(window.bounds).toEqual({ x: 0, y: 25, width: 1366, height: 743 });
  });

  it('a state file that does not parse means the defaults', async () => {
    mkdirSync(folders.profile, { recursive: true });
    writeFileSync(path.join(folders.profile, 'window-state.json'), '{"x": "left", "width": 1e9');
    const { window } = await opened();
    expect(window.bounds).toEqual({ x: 320, y: 95, width: 1280, height: 860 });
  });
});

describe('when something fails', () => {
  it('a core that cannot start shows a dialog naming the log file, which holds the error', async () => {
    // The demo's key sealed under a passphrase of the person's own: the address matches, so core opens
    // desk.db, and preparing the demo wallet then refuses to take the wallet over.
    mkdirSync(folders.dataDir, { recursive: true });
    await new DeskWallet(
      path.join(folders.dataDir, 'wallet.json'),
      undefined,
      'fast-insecure-for-tests',
    ).importPrivateKey(DEMO_KEY, 'a passphrase of the person alone, not the demo one');
    const electron = await launch(folders, {
      env: {
        INTEL_DESK_DEMO: '1',
        INTEL_DESK_DEMO_KEY: DEMO_KEY,
      },
    });
    const box = await electron.fake.errorBoxShown;
    const logFile = path.join(folders.profile, 'logs', 'main.log');
    expect(box.content).toContain(logFile);
    expect(box.content).toContain('Intel Desk could not start');
    expect(await electron.fake.exited).toBe(1);
    expect(readFileSync(logFile, 'utf8')).toMatch(/error Intel Desk could not start: \w*Error/);
    expect(electron.fake.windows).toHaveLength(0);
    // Core had opened desk.db; it was closed before the exit.
    expect(existsSync(path.join(folders.dataDir, 'desk.db'))).toBe(true);
    expect(existsSync(path.join(folders.dataDir, 'desk.db-wal'))).toBe(false);
  });

  it('a missing renderer build is named, with how to make it, instead of an empty window', async () => {
    rmSync(path.join(folders.appDir, 'out', 'renderer', 'index.html'));
    const electron = await launch(folders);
    const box = await electron.fake.errorBoxShown;
    expect(box.content).toContain(
      `missing from ${path.join(folders.appDir, 'out', 'renderer')} (run npm run build)`,
    );
    expect(await electron.fake.exited).toBe(1);
    expect(electron.fake.windows).toHaveLength(0);
  });

  it('a window that cannot load shows the dialog', async () => {
    const electron = await launch(folders, {
      before: (fake) => {
        fake.fake.failLoad = new Error('ERR_CONNECTION_REFUSED (-102) loading app://desk/index.html');
      },
    });
    const box = await electron.fake.errorBoxShown;
    expect(box.content).toContain('The Intel Desk window could not load: ERR_CONNECTION_REFUSED');
    expect(await electron.fake.exited).toBe(1);
  });

  it('settings that do not parse show the dialog instead of exiting silently', async () => {
    const electron = await launch(folders, { env: { INTEL_DESK_SERVICE_URL: 'not a url' } });
    const box = await electron.fake.errorBoxShown;
    expect(box.content).toContain(
      'The settings Intel Desk was started with are not valid: INTEL_DESK_SERVICE_URL: Invalid URL',
    );
    expect(box.content).toMatch(/main\.log/);
    // This fails before the app is ready; the box waits for it, or Linux would show nothing.
    expect(box.ready).toBe(true);
    expect(await electron.fake.exited).toBe(1);
  });

  it('an uncaught error in main shows the dialog, closes core and exits', async () => {
    const before = new Set(process.listeners('uncaughtException'));
    const { electron } = await opened();
    const listener = process.listeners('uncaughtException').find((l) => !before.has(l));
    if (!listener) throw new Error('main installed no uncaughtException handler');
    listener(new Error('boom in a timer'), 'uncaughtException');
    const box = await electron.fake.errorBoxShown;
    const logFile = path.join(folders.profile, 'logs', 'main.log');
    expect(box.content).toContain(logFile);
    expect(box.content).toContain('boom in a timer');
    expect(await electron.fake.exited).toBe(1);
    expect(existsSync(path.join(folders.dataDir, 'desk.db-wal'))).toBe(false);
    expect(readFileSync(logFile, 'utf8')).toContain('Error: boom in a timer');
  });
});
