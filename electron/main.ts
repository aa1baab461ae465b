/**
 * The Electron main process: one locked-down window on the app:// origin, core started by startCore(), and
 * one IPC handler that accepts calls only from that window's top frame on that origin and validates them
 * against the RPC contract. One process per data folder (single-instance lock), a log file in the user data
 * folder, and an error dialog naming that file when something fails instead of a silent exit. What the
 * installed app does besides lives beside it: app-origin.ts (what app:// serves, where the page may go),
 * crash.ts, power.ts (wallet lock), deep-links.ts, updater.ts, notifications.ts, spellcheck.ts, app-menu.ts.
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  protocol,
  screen,
  session,
  type IpcMainInvokeEvent,
} from 'electron';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ElectronHttpExecutor } from 'electron-updater/out/electronHttpExecutor';
import { version } from '../package.json';
import { toRpcError, type DispatchResult } from '../src/host/dispatch';
import type { DeskEventSource } from '../src/shared/events';
import { enforceCsp } from './csp';
import { checkDemoDataDir, DEMO_PASSPHRASE, prepareDemoWallet } from '../src/host/boot';
import { startCoreThread } from '../src/host/core-thread';
import { isAppUrl, lockDown, serveRenderer } from './app-origin';
import { APP_ORIGIN, APP_SCHEME, EVENT_CHANNEL, RPC_CHANNEL } from './channel';
import { deepLinkIn, listenForDeepLinks, type DeepLinks } from './deep-links';
import { readShellEnv, type ShellEnv } from './env';
import { keepCrashDumpsLocally, watchChildProcesses, watchWindow } from './crash';
import { openRotatingLog } from './logs';
import { notifyPurchases } from './notifications';
import { keepDictionariesLocal, offerSpellingSuggestions, spellcheckOn } from './spellcheck';
import { prepareUpdates } from './updater';
import { lockWalletWithTheScreen } from './power';
import { installMenu } from './app-menu';
import { answerBackupPicks } from './restore-dialog';
import { answerFolderExports } from './export-dialog';
import { safeStorageVault } from './vault';
import { MIN_SIZE, placeWindow, readWindowState, writeWindowState } from './window-state';

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

/** What the shell needs of core: one call in, one close on quit. */
interface ShellCore {
  call(method: string, input: unknown): Promise<DispatchResult>;
  /** A file the person chose in main's dialog, handed to core (a host-only method the page cannot call). */
  pickRestoreFile(file: string): Promise<DispatchResult>;
  /** A folder the person chose in main's dialog, for core's host-only Markdown export. */
  exportFolder(dir: string, handle: string | undefined): Promise<DispatchResult>;
  events: DeskEventSource;
  close(): Promise<void>;
}

// A data folder given by `npm start` or a test brings its own Electron profile, so the single-instance lock
// (keyed on the profile) guards that folder's desk.db, and logs and window state travel with it.
let env: ShellEnv | null = null;
let envError: unknown = null;
try {
  env = readShellEnv(process.env);
  if (env.dataDir) app.setPath('userData', path.join(path.resolve(env.dataDir), 'electron'));
} catch (error) {
  envError = error;
}

const log = openRotatingLog({ dir: path.join(app.getPath('userData'), 'logs') });
// As early as possible, so a crash during start-up leaves a dump too.
keepCrashDumpsLocally(log);
watchChildProcesses(log);
const appPath = app.getAppPath();
const rendererDir = path.join(appPath, 'out', 'renderer');
const preloadPath = path.join(appPath, 'out', 'preload', 'index.cjs');
// Native image loading cannot read inside the asar archive; electron-builder unpacks the icon beside it.
const iconPath = path
  .join(appPath, 'resources', 'icon.png')
  .replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
const windowStateFile = path.join(app.getPath('userData'), 'window-state.json');

let core: Promise<ShellCore> | null = null;
let mainWindow: BrowserWindow | null = null;
let coreClosed: Promise<void> | null = null;
let quitReady = false;
let failed = false;

/** A host-only call of core's from main (after its own dialog), answered as the page's calls are. */
async function hostCall(run: () => Promise<unknown>, what: string): Promise<DispatchResult> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error: toRpcError(error, (cause) => log.error(what, cause)) };
  }
}

/**
 * How core runs for this window, the one place that decides it. Core runs in a worker thread
 * (src/host/core-thread.ts), so this thread never blocks on SQLite, scrypt or PDF rendering; it loads the
 * better-sqlite3 build for Electron's ABI that `npm start` or the packager put beside the app
 * (INTEL_DESK_NATIVE_BINDING), and the keychain (safeStorage) stays on this thread.
 */
async function startCore(shellEnv: ShellEnv): Promise<ShellCore> {
  const dataDir = shellEnv.dataDir ?? path.join(app.getPath('userData'), 'desk');
  // The demo never opens a folder holding someone's own wallet (it would replace it).
  if (shellEnv.demo && shellEnv.demoKey)
    checkDemoDataDir(dataDir, shellEnv.demoKey, safeStorageVault, shellEnv.demoWallet);
  const desk = await startCoreThread({
    core: {
      dataDir,
      ...(shellEnv.serviceUrl ? { serviceUrl: shellEnv.serviceUrl } : {}),
      ...(shellEnv.rpcUrl ? { rpcUrl: shellEnv.rpcUrl } : {}),
      ...(shellEnv.nativeBinding ? { nativeBinding: shellEnv.nativeBinding } : {}),
      demo: shellEnv.demo,
      // The demo unlocks its own wallet with a passphrase the person never typed (src/host/boot.ts).
      autoLockWallet: !shellEnv.demo,
      followOtherWriters: true,
      walletConnectRelayUrl: shellEnv.walletConnectRelayUrl,
      // From a checkout the CLI is the project's bin, run by Node (this binary runs no scripts as Node);
      // packaged, `intel-desk` as `npm install -g intel-desk` puts it on the PATH (decision 0051).
      ...(app.isPackaged
        ? {}
        : { cliLauncher: { command: 'node', args: [path.join(appPath, 'bin', 'intel-desk.mjs')] } }),
      ...(shellEnv.demoAsset ? { demoAsset: shellEnv.demoAsset } : {}),
      ...(shellEnv.demo && shellEnv.demoKey ? { demoWalletPassphrase: DEMO_PASSPHRASE } : {}),
      ...(shellEnv.demo && shellEnv.demoLibrarySecret
        ? { demoLibrarySecret: shellEnv.demoLibrarySecret }
        : {}),
    },
    vault: safeStorageVault,
    log: (error) => log.error('A request failed inside core', error),
    // Built, the worker is its own electron-vite entry beside this file; from source, core-thread finds it.
    ...(import.meta.url.endsWith('.ts')
      ? {}
      : { entry: path.join(path.dirname(fileURLToPath(import.meta.url)), 'core-worker.js') }),
  });
  try {
    if (shellEnv.demo && shellEnv.demoKey)
      await prepareDemoWallet(desk, shellEnv.demoKey, dataDir, undefined, shellEnv.demoWallet);
  } catch (error) {
    await desk.close();
    throw error;
  }
  // Core's events go to the desk window only; a window that is gone or not yet open simply misses them.
  desk.events.on((event) => {
    const contents = mainWindow?.webContents;
    if (contents && !contents.isDestroyed()) contents.send(EVENT_CHANNEL, event);
  });
  return {
    // Parsed here because IPC clones objects; validation, the call and error mapping ran in core's worker.
    call: async (method, input) =>
      JSON.parse(new TextDecoder().decode(await desk.dispatchJson(method, input))) as DispatchResult,
    pickRestoreFile: (file) =>
      hostCall(() => desk.handlers['library.pickRestoreFile']({ file }), 'Picking a backup failed'),
    exportFolder: (dir, handle) =>
      hostCall(
        () => desk.handlers['library.exportFolder']({ dir, ...(handle === undefined ? {} : { handle }) }),
        'Exporting a Markdown folder failed',
      ),
    events: desk.events,
    close: () => desk.close(),
  };
}

function closeCore(): Promise<void> {
  coreClosed ??= (async () => {
    const running = await core?.catch(() => null);
    await running?.close();
    log.info('Core closed.');
  })().catch((error: unknown) => log.error('Closing core failed', error));
  return coreClosed;
}

/** Logs the error, tells the person where the log is, and exits after closing core. */
function fail(context: string, error: unknown): void {
  log.error(context, error);
  if (failed) return;
  failed = true;
  const summary = error instanceof Error ? error.message : String(error);
  const show = () => {
    dialog.showErrorBox(
      'Intel Desk has to close',
      `${context}: ${summary}\n\nThe details are in the log file:\n${log.file}`,
    );
    void closeCore().finally(() => app.exit(1));
  };
  // Before ready, Linux prints the error box to stderr instead of showing it.
  if (app.isReady()) show();
  else void app.whenReady().then(show);
}

/** Only the desk window's own top frame, showing the app origin, may call core. */
function fromDeskWindow(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  if (!frame || !mainWindow || mainWindow.isDestroyed()) return false;
  return event.sender.id === mainWindow.webContents.id && frame.parent === null && isAppUrl(frame.url);
}

/**
 * The page at a route, in the person's locale (src/renderer/locale.ts reads it; decision 0025). The query is
 * the same on every load, so a route change is only a fragment change, which does not reload the page.
 */
const pageUrl = (hash: string) =>
  `${APP_ORIGIN}/index.html?locale=${encodeURIComponent(app.getLocale())}${hash}`;

/** The window opens at `hash` (a route of src/shared/route.ts), or at the Shelf. */
function createWindow(hash = ''): void {
  const placement = placeWindow(
    readWindowState(windowStateFile),
    screen.getPrimaryDisplay().workArea,
    screen.getAllDisplays().map((display) => display.workArea),
  );
  const window = new BrowserWindow({
    ...placement.bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: 'Intel Desk',
    icon: iconPath,
    show: false,
    webPreferences: {
      // preload.ts exposes call(method, input) and onEvent(listener), one IPC channel each; see its header.
      preload: preloadPath,
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
      // Staff write in the dossier editor; spellcheck.ts offers the suggestions, on macOS only.
      spellcheck: spellcheckOn(process.platform),
    },
  });
  mainWindow = window;
  if (placement.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => {
    try {
      writeWindowState(windowStateFile, { ...window.getNormalBounds(), maximized: window.isMaximized() });
    } catch (error) {
      log.error(`Saving the window position to ${windowStateFile} failed`, error);
    }
  });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  watchWindow(window, log);
  offerSpellingSuggestions(window);
  window.loadURL(pageUrl(hash)).catch((error: unknown) => {
    // ERR_ABORTED only means another navigation replaced this one; anything else leaves an empty window.
    if (error instanceof Error && error.message.includes('ERR_ABORTED'))
      log.info(`Window load aborted: ${error.message}`);
    else fail('The Intel Desk window could not load', error);
  });
}

/** A second launch on the same data folder ends at once; the first brings its window forward. */
function focusWindow(hash = ''): void {
  if (!mainWindow || mainWindow.isDestroyed()) {
    if (core && app.isReady()) createWindow(hash);
    return;
  }
  // Only the fragment changes: the page follows it as it follows Back and Forward, without reloading.
  if (hash)
    void mainWindow
      .loadURL(pageUrl(hash))
      .catch((error: unknown) => log.error(`Opening ${hash} failed`, error));
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

async function start(shellEnv: ShellEnv, deepLinks: DeepLinks): Promise<void> {
  log.info(`Intel Desk ${version} starting; data in ${shellEnv.dataDir ?? app.getPath('userData')}`);
  await app.whenReady();
  // Without this a missing build shows a window reading "Not found" and nothing else.
  if (!existsSync(path.join(rendererDir, 'index.html')))
    throw new Error(`the window's files are missing from ${rendererDir} (run npm run build)`);
  lockDown();
  keepDictionariesLocal(session.defaultSession, process.platform);
  enforceCsp(shellEnv.walletConnectRelayUrl);
  serveRenderer(rendererDir, shellEnv.walletConnectRelayUrl);
  const updates = prepareUpdates({
    log,
    off: shellEnv.demo ? 'demo' : app.isPackaged ? null : 'development',
    feedUrl: shellEnv.updateUrl ?? null,
    executor: new ElectronHttpExecutor(),
    window: () => mainWindow,
  });
  installMenu({
    log,
    iconPath,
    appPath,
    window: () => mainWindow,
    checkForUpdates: () => updates.checkNow(),
  });
  core = startCore(shellEnv);
  const running = await core;
  ipcMain.handle(RPC_CHANNEL, async (event, method: unknown, input: unknown) => {
    if (!fromDeskWindow(event)) {
      log.error(`Refused a call from ${event.senderFrame?.url ?? 'a closed frame'}`);
      return {
        ok: false,
        error: { code: 'forbidden', message: 'Only Intel Desk itself may call Intel Desk.' },
      };
    }
    if (typeof method !== 'string') {
      return { ok: false, error: { code: 'invalid_input', message: 'That request was not valid.' } };
    }
    return running.call(method, input);
  });
  answerBackupPicks({
    fromDeskWindow,
    window: () => mainWindow,
    folder: async () => {
      const answer = await running.call('library.backups', {});
      return answer.ok ? (answer.value as { folder: string }).folder : null;
    },
    pick: running.pickRestoreFile,
    log: (message) => log.error(message),
  });
  answerFolderExports({
    fromDeskWindow,
    window: () => mainWindow,
    exportFolder: running.exportFolder,
    log: (message) => log.error(message),
  });
  if (!shellEnv.demo) lockWalletWithTheScreen(running.call, log);
  notifyPurchases({
    call: running.call,
    events: running.events,
    window: () => mainWindow,
    open: focusWindow,
    log,
  });
  createWindow(deepLinks.ready());
  updates.start();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  log.info('Window opened.');
}

process.on('uncaughtException', (error) => fail('An unexpected error stopped Intel Desk', error));
process.on('unhandledRejection', (error) => fail('An unexpected error stopped Intel Desk', error));

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('before-quit', (event) => {
  if (quitReady) return;
  event.preventDefault();
  void closeCore().finally(() => {
    quitReady = true;
    app.quit();
  });
});

if (envError || !env) {
  fail('The settings Intel Desk was started with are not valid', envError);
} else if (!app.requestSingleInstanceLock()) {
  log.info('Intel Desk is already running on this data folder; that window comes forward instead.');
  quitReady = true;
  app.quit();
} else {
  // Registered before ready: macOS delivers the link that launched the app as open-url during start-up.
  const deepLinks = listenForDeepLinks(log, focusWindow);
  app.on('second-instance', (_event, argv) => {
    const link = deepLinkIn(argv);
    if (link) deepLinks.open(link);
    else focusWindow();
  });
  start(env, deepLinks).catch((error: unknown) => fail('Intel Desk could not start', error));
}
