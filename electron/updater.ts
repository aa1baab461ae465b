/**
 * Automatic updates with electron-updater: a check at start and daily, the update downloaded in the background
 * and verified against the sha512 its feed (latest.yml) publishes, then "Restart to Update". Off in development
 * and the demo (main decides). The feed is INTEL_DESK_UPDATE_URL (a generic provider), else the app-update.yml
 * electron-builder writes into a package's resources when `publish` names one; with neither there is nothing
 * to check, which is said once in the log. A failed background check is a log line, never a dialog; Help →
 * Check for Updates answers in a dialog whatever happens (update-answer.ts).
 */
import { app, dialog, type BrowserWindow } from 'electron';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { ClientRequest } from 'node:http';
import path from 'node:path';
import {
  AppImageUpdater,
  DebUpdater,
  MacUpdater,
  NsisUpdater,
  type AppUpdater,
  type UpdateDownloadedEvent,
} from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import type { HttpExecutor } from 'builder-util-runtime';
import { version } from '../package.json';
import type { ShellLog } from './logs';
import { answerBox, shortReason, type UpdateAnswer } from './update-answer';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface AutoUpdateOptions {
  log: ShellLog;
  /** Why this copy never looks for updates (a checkout, the demo); null when it does. */
  off: 'development' | 'demo' | null;
  /** A generic feed (the folder holding latest.yml); null = the package's own app-update.yml, if any. */
  feedUrl: string | null;
  /** How update files are fetched: Electron's net in the app (ElectronHttpExecutor), Node's http in tests. */
  executor: HttpExecutor<Electron.ClientRequest> | HttpExecutor<ClientRequest>;
  /** The window the "Restart to Update" question belongs to. */
  window: () => BrowserWindow | null;
  /** Installs the downloaded update and restarts (electron-updater's quitAndInstall unless replaced). */
  install?: (updater: AppUpdater) => void;
  /** Install a downloaded update when the app quits, if the person chose Later (true in the app). */
  installOnQuit?: boolean;
  /** Runs `check` every `everyMs` until the returned function is called (setInterval in the app). */
  schedule?: (check: () => void, everyMs: number) => () => void;
}

export interface AutoUpdates {
  /** The check at start and the daily one (a log line instead, when off or without a feed). */
  start(): void;
  /** One check (and background download); resolves when both are over, whatever they found. */
  check(): Promise<void>;
  /** Help → Check for Updates: one check, its answer shown in a dialog and returned. */
  checkNow(): Promise<UpdateAnswer>;
  stop(): void;
}

/** electron-updater's view of the app, from Electron's `app`, with its cache inside the profile. */
function appAdapter(): AppAdapter {
  const resources = process.resourcesPath ?? app.getAppPath();
  return {
    version,
    name: 'intel-desk',
    isPackaged: app.isPackaged,
    appUpdateConfigPath: path.join(resources, 'app-update.yml'),
    userDataPath: app.getPath('userData'),
    baseCachePath: path.join(app.getPath('userData'), 'update-cache'),
    whenReady: () => app.whenReady(),
    relaunch: () => app.relaunch(),
    quit: () => app.quit(),
    onQuit: (handler) => app.once('quit', (_event: unknown, exitCode: number) => handler(exitCode)),
  };
}

/** The updater for how this copy was installed: NSIS, DMG, AppImage, or the deb package. */
function platformUpdater(adapter: AppAdapter): AppUpdater {
  if (process.platform === 'win32') return new NsisUpdater(undefined, adapter);
  if (process.platform === 'darwin') return new MacUpdater(undefined, adapter);
  if (process.env['APPIMAGE']) return new AppImageUpdater(undefined, adapter);
  return new DebUpdater(undefined, adapter);
}

/**
 * Where the feed is described: the named feed written as electron-updater's own config file (so the check,
 * the download cache and the verification take its ordinary path), else the package's file; null if neither.
 */
function feedConfig(adapter: AppAdapter, feedUrl: string | null): string | null {
  if (!feedUrl) return existsSync(adapter.appUpdateConfigPath) ? adapter.appUpdateConfigPath : null;
  const file = path.join(adapter.userDataPath, 'update-feed.yml');
  mkdirSync(adapter.userDataPath, { recursive: true });
  const config = [
    'provider: generic',
    `url: ${JSON.stringify(feedUrl)}`,
    'updaterCacheDirName: intel-desk-updater',
    '',
  ];
  writeFileSync(file, config.join('\n'), { mode: 0o600 });
  return file;
}

function showBox(options: AutoUpdateOptions, box: Electron.MessageBoxOptions) {
  const window = options.window();
  return window ? dialog.showMessageBox(window, box) : dialog.showMessageBox(box);
}

/** Updates that never look: the answer is the same every time, and start says it once in the log. */
function quietUpdates(options: AutoUpdateOptions, answer: UpdateAnswer, line: string): AutoUpdates {
  return {
    start: () => options.log.info(`Updates: ${line}`),
    check: () => Promise.resolve(),
    checkNow: async () => {
      await showBox(options, answerBox(answer, version));
      return answer;
    },
    stop: () => undefined,
  };
}

export function prepareUpdates(options: AutoUpdateOptions): AutoUpdates {
  const { log, off } = options;
  if (off)
    return quietUpdates(
      options,
      { kind: 'off', why: off },
      `off in ${off === 'demo' ? 'the demo' : 'a development build'}.`,
    );
  const adapter = appAdapter();
  const config = feedConfig(adapter, options.feedUrl);
  if (!config)
    return quietUpdates(
      options,
      { kind: 'no-feed' },
      'this copy names no update feed, so it does not look for updates.',
    );
  const updater = platformUpdater(adapter);
  updater.updateConfigPath = config;
  // Not in the .d.ts: the transport electron-updater uses when it builds its own Electron adapter.
  Object.assign(updater, { httpExecutor: options.executor });
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = options.installOnQuit ?? true;
  updater.logger = {
    info: (message?: unknown) => log.info(`Updates: ${String(message)}`),
    warn: (message?: unknown) => log.info(`Updates: ${String(message)}`),
    error: (message?: unknown) => log.error(`Updates: ${String(message)}`),
  };
  const install = options.install ?? ((it: AppUpdater) => it.quitAndInstall());
  const answer = async (given: UpdateAnswer): Promise<UpdateAnswer> => {
    const { response } = await showBox(options, answerBox(given, version));
    if (given.kind === 'ready' && response === 0) install(updater);
    return given;
  };
  let downloaded: string | null = null;
  let asked = false;
  updater.on('update-downloaded', (event: UpdateDownloadedEvent) => {
    log.info(`Updates: Intel Desk ${event.version} is downloaded and verified (sha512).`);
    downloaded = event.version;
    if (asked) return;
    asked = true;
    void answer({ kind: 'ready', version: event.version });
  });
  // Logged by the logger above; a listener keeps the emitter from throwing it.
  updater.on('error', () => undefined);

  const check = async () => {
    try {
      const result = await updater.checkForUpdates();
      await result?.downloadPromise;
    } catch {
      // Already in the log (electron-updater reports it through the logger); nobody is interrupted.
    }
  };
  const checkNow = async (): Promise<UpdateAnswer> => {
    if (downloaded) return answer({ kind: 'ready', version: downloaded });
    let result: Awaited<ReturnType<AppUpdater['checkForUpdates']>>;
    try {
      result = await updater.checkForUpdates();
    } catch (error) {
      return answer({ kind: 'failed', reason: shortReason(error) });
    }
    // null only when electron-updater thinks the app is not packaged, which `off` already covers.
    if (!result) return answer({ kind: 'off', why: 'development' });
    if (!result.isUpdateAvailable) return answer({ kind: 'up-to-date' });
    const found = result.updateInfo.version;
    // The person asked and was told it is downloading: a download that then fails is said too.
    void result.downloadPromise?.catch((error: unknown) =>
      answer({ kind: 'failed', reason: shortReason(error), version: found }),
    );
    return answer({ kind: 'downloading', version: found });
  };
  let stopSchedule: () => void = () => undefined;
  return {
    start: () => {
      void check();
      const schedule =
        options.schedule ??
        ((run: () => void, everyMs: number) => {
          const timer = setInterval(run, everyMs);
          return () => clearInterval(timer);
        });
      stopSchedule = schedule(() => void check(), DAY_MS);
    },
    check,
    checkNow,
    stop: () => stopSchedule(),
  };
}
