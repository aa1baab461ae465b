/** The application menu with its Help actions: About (version, runtime, where the logs are) and the logs folder. */
import { app, dialog, Menu, shell, type BrowserWindow } from 'electron';
import { description, version } from '../package.json';
import type { ShellLog } from './logs';
import { menuTemplate } from './menu';

function showAbout(log: ShellLog, window: BrowserWindow | null): void {
  const versions = `Electron ${process.versions.electron ?? 'unknown'}, Chromium ${process.versions.chrome ?? 'unknown'}, Node ${process.versions.node}`;
  const options = {
    type: 'info' as const,
    title: 'About Intel Desk',
    message: `Intel Desk ${version}`,
    detail: `${description}.\n\n${versions}\nLogs: ${log.dir}`,
    buttons: ['OK'],
  };
  void (window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options));
}

export function installMenu(log: ShellLog, iconPath: string, window: () => BrowserWindow | null): void {
  app.setAboutPanelOptions({ applicationName: 'Intel Desk', applicationVersion: version, iconPath });
  const template = menuTemplate(process.platform, {
    showAbout: () => showAbout(log, window()),
    openLogsFolder: () => {
      void shell.openPath(log.dir).then((problem) => {
        if (problem) log.error(`Opening the logs folder ${log.dir} failed: ${problem}`);
      });
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
