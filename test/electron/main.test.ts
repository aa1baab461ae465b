/**
 * The real electron/main.ts, run against a recording stand-in for Electron (no binary here): the window's
 * settings, the CSP and the app:// protocol, who may call core over IPC, what the page may navigate to or
 * open, permissions, and a quit that closes core before the process ends.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../src/host/csp';
import { APP_ORIGIN, EVENT_CHANNEL, RPC_CHANNEL } from '../../electron/channel';
import { fakeEvent, type InvokeEvent } from './fake-electron';
import {
  cleanup,
  launchOpened,
  makeFolders,
  type FakeElectron,
  type Folders,
  type LaunchOptions,
} from './launch';

vi.mock('electron', () => import('./fake-electron'));

let folders: Folders;
beforeEach(() => {
  folders = makeFolders();
});
afterEach(() => cleanup(folders));

const opened = (options: LaunchOptions = {}) => launchOpened(folders, options);

describe('the window', () => {
  it('is sandboxed, context-isolated, without Node, and loads only the app origin', async () => {
    const { window } = await opened();
    expect(window.options.webPreferences).toEqual({
      preload: path.join(folders.appDir, 'out', 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      disableBlinkFeatures: 'Auxclick',
      spellcheck: process.platform === 'darwin',
    });
    expect(window.loadedUrl).toBe(`${APP_ORIGIN}/index.html?locale=en-US`);
    expect(window.options['icon']).toBe(path.join(folders.appDir, 'resources', 'icon.png'));
    expect(window.options['show']).toBe(false);
    expect(window.visible).toBe(false);
    window.emit('ready-to-show');
    expect(window.visible).toBe(true);
  });

  it('registers app:// as a secure standard scheme without bypassing the CSP', async () => {
    const { electron } = await opened();
    expect(electron.protocol.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
  });
});

describe('the CSP', () => {
  it('replaces whatever CSP a response carries with the one policy of src/host/csp.ts', async () => {
    const { electron } = await opened();
    const listener = electron.session.defaultSession.headersListener;
    expect(listener).not.toBeNull();
    let headers: Record<string, string[]> | undefined;
    listener?.(
      {
        url: 'https://relay.walletconnect.org/',
        responseHeaders: { 'Content-Security-Policy': ["script-src 'unsafe-eval' *"], 'X-Other': ['kept'] },
      },
      (response) => (headers = response.responseHeaders),
    );
    expect(headers?.['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    expect(headers?.['X-Other']).toEqual(['kept']);
  });

  it('is on every app:// response, found or not', async () => {
    const { electron } = await opened();
    const handler = electron.protocol.handlers.get('app');
    if (!handler) throw new Error('main registered no app:// handler');
    for (const url of [`${APP_ORIGIN}/index.html`, `${APP_ORIGIN}/missing.js`]) {
      const response = await handler(new Request(url));
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(response.headers.get(name)).toBe(value);
    }
    const index = await handler(new Request(`${APP_ORIGIN}/index.html?locale=en-US`));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await index.text()).toContain('<title>Intel Desk</title>');
  });
});

describe('app://', () => {
  it('refuses paths that leave the renderer folder and hosts other than the desk', async () => {
    const { electron } = await opened();
    const handler = electron.protocol.handlers.get('app');
    if (!handler) throw new Error('main registered no app:// handler');
    // A page worth stealing just outside the renderer folder, and the app's own package.json.
    writeFileSync(path.join(folders.appDir, 'out', 'secret.html'), 'SECRET');
    writeFileSync(path.join(folders.appDir, 'package.json'), '{"secret":"SECRET"}');
    const attempts = [
      `${APP_ORIGIN}/..%2Fsecret.html`,
      `${APP_ORIGIN}/assets/..%2F..%2Fsecret.html`,
      `${APP_ORIGIN}/%2E%2E%2F%2E%2E%2Fpackage.json`,
      `${APP_ORIGIN}/..%5C..%5Cpackage.json`,
      `${APP_ORIGIN}/${encodeURIComponent(path.join(folders.appDir, 'out', 'secret.html'))}`,
      `${APP_ORIGIN}/index.html%00.png`,
      'app://evil/index.html',
    ];
    for (const url of attempts) {
      const response = await handler(new Request(url));
      expect(response.status, url).toBe(404);
      expect(await response.text(), url).not.toContain('SECRET');
    }
  });
});

describe('IPC', () => {
  function invoke(electron: FakeElectron, event: InvokeEvent, method: unknown, input: unknown = {}) {
    const handler = electron.ipcMain.handlers.get(RPC_CHANNEL);
    if (!handler) throw new Error('main registered no RPC handler');
    return handler(event, method, input);
  }

  it('answers the desk window top frame on the app origin with a real core call', async () => {
    const { electron, window } = await opened();
    const contents = window.webContents;
    const reply = (await invoke(
      electron,
      { sender: contents, senderFrame: contents.mainFrame },
      'app.info',
    )) as {
      ok: boolean;
      value?: { version?: unknown };
    };
    expect(reply.ok).toBe(true);
    expect(typeof reply.value?.version).toBe('string');
    expect(
      await invoke(electron, { sender: contents, senderFrame: contents.mainFrame }, 'no.such'),
    ).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
    expect(await invoke(electron, { sender: contents, senderFrame: contents.mainFrame }, 42)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });

  it('sends core’s events to the desk window after the change that caused them', async () => {
    const { electron, window } = await opened();
    const contents = window.webContents;
    const events = () => contents.sent.filter(([channel]) => channel === EVENT_CHANNEL).map(([, e]) => e);
    expect(
      await invoke(electron, { sender: contents, senderFrame: contents.mainFrame }, 'settings.update', {
        theme: 'dark',
      }),
    ).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(events()).toContainEqual({ type: 'settings.changed' }));
    expect(contents.sent.every(([channel]) => channel === EVENT_CHANNEL)).toBe(true);
  });

  it('refuses another origin, a subframe, another web contents and a gone frame', async () => {
    const { electron, window } = await opened();
    const contents = window.webContents;
    const stranger = new electron.FakeWebContents();
    stranger.mainFrame.url = `${APP_ORIGIN}/index.html`;
    const refused: InvokeEvent[] = [
      { sender: contents, senderFrame: { url: 'https://evil.example/', parent: null } },
      { sender: contents, senderFrame: { url: 'app://evil/index.html', parent: null } },
      { sender: contents, senderFrame: { url: 'file:///etc/passwd', parent: null } },
      { sender: contents, senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: contents.mainFrame } },
      { sender: stranger, senderFrame: stranger.mainFrame },
      { sender: contents, senderFrame: null },
    ];
    for (const event of refused) {
      expect(await invoke(electron, event, 'app.info'), JSON.stringify(event.senderFrame)).toEqual({
        ok: false,
        error: { code: 'forbidden', message: 'Only Intel Desk itself may call Intel Desk.' },
      });
    }
  });
});

describe('what the page may do', () => {
  it('navigates and redirects only within the app origin', async () => {
    const { window } = await opened();
    const contents = window.webContents;
    for (const name of ['will-navigate', 'will-redirect']) {
      const away = fakeEvent();
      contents.emit(name, away, 'https://evil.example/phish');
      expect(away.defaultPrevented, name).toBe(true);
      const file = fakeEvent();
      contents.emit(name, file, 'file:///etc/passwd');
      expect(file.defaultPrevented, name).toBe(true);
      const home = fakeEvent();
      contents.emit(name, home, `${APP_ORIGIN}/index.html?locale=en-US#/library`);
      expect(home.defaultPrevented, name).toBe(false);
    }
    const frameAway = fakeEvent({ url: 'https://evil.example/' });
    contents.emit('will-frame-navigate', frameAway);
    expect(frameAway.defaultPrevented).toBe(true);
  });

  it('opens no new windows and attaches no webviews, in any web contents', async () => {
    const { electron, window } = await opened();
    const later = new electron.FakeWebContents();
    electron.app.emit('web-contents-created', fakeEvent(), later);
    for (const contents of [window.webContents, later]) {
      expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
      expect(contents.windowOpenHandler?.({ url: `${APP_ORIGIN}/index.html` })).toEqual({ action: 'deny' });
      const webview = fakeEvent();
      contents.emit('will-attach-webview', webview, {}, { src: `${APP_ORIGIN}/index.html` });
      expect(webview.defaultPrevented).toBe(true);
    }
  });

  it('is granted no permission and no device', async () => {
    const { electron } = await opened();
    const session = electron.session.defaultSession;
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const answers: boolean[] = [];
      session.permissionRequest?.(null, permission, (granted) => answers.push(granted));
      expect(answers, permission).toEqual([false]);
      expect(session.permissionCheck?.(null, permission), permission).toBe(false);
    }
    expect(session.devicePermission?.({ deviceType: 'usb' })).toBe(false);
  });
});

describe('quitting', () => {
  it('closes core (desk.db checkpointed and released) before the app goes', async () => {
    const { electron } = await opened();
    const db = path.join(folders.dataDir, 'desk.db');
    expect(existsSync(`${db}-wal`)).toBe(true);
    let walAtQuit: boolean | null = null;
    electron.app.on('will-quit', () => (walAtQuit = existsSync(`${db}-wal`)));
    electron.app.quit();
    await electron.fake.quitted;
    // SQLite removes the WAL only when the last connection closes cleanly.
    expect(walAtQuit).toBe(false);
    const reopened = new Database(db, { readonly: true });
    try {
      expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      reopened.close();
    }
  });
});
