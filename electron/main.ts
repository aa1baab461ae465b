/**
 * The Electron main process: one locked-down window on the app:// origin, core in this process, and one IPC
 * handler that accepts calls only from that origin and validates them against the RPC contract.
 */
import { app, BrowserWindow, ipcMain, protocol, session } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDeskCore, type DeskCore } from '../src/core';
import { dispatch } from '../src/host/dispatch';
import { SECURITY_HEADERS } from '../src/host/csp';
import { readStatic } from '../src/host/static-files';
import { prepareDemoWallet } from '../src/host/boot';
import { APP_ORIGIN, APP_SCHEME, RPC_CHANNEL } from './channel';
import { readShellEnv } from './env';
import { safeStorageVault } from './vault';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, '../renderer');
const preloadPath = path.join(here, '../preload/index.cjs');

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let core: DeskCore | null = null;

function isAppUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    return new URL(url).origin === APP_ORIGIN;
  } catch {
    return false;
  }
}

function serveRenderer(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = url.origin === APP_ORIGIN ? await readStatic(rendererDir, url.pathname) : null;
    if (!file) return new Response('Not found', { status: 404, headers: SECURITY_HEADERS });
    return new Response(new Uint8Array(file.body), {
      headers: { ...SECURITY_HEADERS, 'Content-Type': file.type },
    });
  });
}

/**
 * The CSP of src/host/csp.ts, written out literally so static scanners can read it; a host test checks
 * that both stay identical. It covers every response the window loads, app:// included.
 */
function enforceCsp(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [
          "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self' wss://relay.walletconnect.org https://rpc.walletconnect.org https://verify.walletconnect.org https://verify.walletconnect.com; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'",
        ],
      },
    });
  });
}

function lockDown(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    title: 'Intel Desk',
    show: false,
    webPreferences: {
      // preload.ts exposes one function, call(method, input), over one IPC channel; see its header.
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(`${APP_ORIGIN}/index.html`);
}

async function start(): Promise<void> {
  const env = readShellEnv(process.env);
  await app.whenReady();
  lockDown();
  enforceCsp();
  serveRenderer();
  core = await createDeskCore({
    dataDir: env.dataDir ?? path.join(app.getPath('userData'), 'desk'),
    ...(env.serviceUrl ? { serviceUrl: env.serviceUrl } : {}),
    ...(env.rpcUrl ? { rpcUrl: env.rpcUrl } : {}),
    demo: env.demo,
    ...(env.demoAsset ? { demoAsset: env.demoAsset } : {}),
    vault: safeStorageVault,
  });
  if (env.demo && env.demoKey) await prepareDemoWallet(core, env.demoKey);
  const handlers = core.handlers;
  ipcMain.handle(RPC_CHANNEL, async (event, method: unknown, input: unknown) => {
    if (!isAppUrl(event.senderFrame?.url)) {
      return {
        ok: false,
        error: { code: 'forbidden', message: 'Only Intel Desk itself may call Intel Desk.' },
      };
    }
    if (typeof method !== 'string') {
      return { ok: false, error: { code: 'invalid_input', message: 'That request was not valid.' } };
    }
    return dispatch(handlers, method, input);
  });
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

let closing = false;
app.on('before-quit', (event) => {
  if (!core || closing) return;
  closing = true;
  event.preventDefault();
  void core.close().finally(() => app.quit());
});

start().catch((error: unknown) => {
  console.error(error);
  app.exit(1);
});
