/**
 * The application menu with its Help actions: About (version, runtime, where the logs are, and the third-party
 * notices), the notices themselves, Check for Updates, and the logs folder.
 */
import { app, dialog, Menu, shell, type BrowserWindow } from 'electron';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { description, version } from '../package.json';
import type { ShellLog } from './logs';
import { menuTemplate } from './menu';

/**
 * The copyright line the WalletConnect Community License requires wherever the app's notices are (its
 * Distribution Requirements, quoted exactly); the generated notices open with it too.
 */
export const WALLETCONNECT_ATTRIBUTION = 'Portions © 2025 Reown, Inc. All Rights Reserved';

export interface MenuContext {
  log: ShellLog;
  iconPath: string;
  /** The app's folder: `npm run build` writes out/THIRD_PARTY_NOTICES.txt there. */
  appPath: string;
  window: () => BrowserWindow | null;
  /** Help → Check for Updates: the updater answers in a dialog of its own (updater.ts). */
  checkForUpdates: () => Promise<unknown>;
}

function ask(window: BrowserWindow | null, options: Electron.MessageBoxOptions) {
  return window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options);
}

/**
 * Opens the notices in the system's text viewer. The file is inside app.asar in a package, where no other
 * program can read it, so a copy is written to the profile first.
 */
function showNotices(context: MenuContext): void {
  const built = path.join(context.appPath, 'out', 'THIRD_PARTY_NOTICES.txt');
  if (!existsSync(built)) {
    context.log.error(`The third-party notices are missing from ${built}`);
    void ask(context.window(), {
      type: 'warning',
      title: 'Third-Party Notices',
      message: 'This copy of Intel Desk was built without its third-party notices.',
      detail: 'npm run build writes them; they list every package Intel Desk includes and its licence.',
      buttons: ['OK'],
    });
    return;
  }
  const copy = path.join(app.getPath('userData'), 'THIRD_PARTY_NOTICES.txt');
  writeFileSync(copy, readFileSync(built));
  void shell.openPath(copy).then((problem) => {
    if (problem) context.log.error(`Opening ${copy} failed: ${problem}`);
  });
}

function showAbout(context: MenuContext): void {
  const versions = `Electron ${process.versions.electron ?? 'unknown'}, Chromium ${process.versions.chrome ?? 'unknown'}, Node ${process.versions.node}`;
  void ask(context.window(), {
    type: 'info',
    title: 'About Intel Desk',
    message: `Intel Desk ${version}`,
    detail: `${description}.\n\n${versions}\nLogs: ${context.log.dir}\n\nIntel Desk includes third-party software under its own licences (including the WalletConnect Community License); Third-Party Notices lists each with its licence text.\n${WALLETCONNECT_ATTRIBUTION}`,
    buttons: ['OK', 'Third-Party Notices'],
    defaultId: 0,
    cancelId: 0,
  }).then(({ response }) => {
    if (response === 1) showNotices(context);
  });
}

export function installMenu(context: MenuContext): void {
  const { log } = context;
  app.setAboutPanelOptions({
    applicationName: 'Intel Desk',
    applicationVersion: version,
    iconPath: context.iconPath,
    copyright: `Copyright © Intel Desk authors\n${WALLETCONNECT_ATTRIBUTION}`,
  });
  const template = menuTemplate(process.platform, {
    showAbout: () => showAbout(context),
    showNotices: () => showNotices(context),
    checkForUpdates: () => {
      void context
        .checkForUpdates()
        .catch((error: unknown) => log.error('Checking for updates failed', error));
    },
    openLogsFolder: () => {
      void shell.openPath(log.dir).then((problem) => {
        if (problem) log.error(`Opening the logs folder ${log.dir} failed: ${problem}`);
      });
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
