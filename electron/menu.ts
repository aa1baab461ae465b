/**
 * The application menu. Its Edit items carry Electron's standard roles: on macOS the keyboard shortcuts for
 * copy, paste, undo and select-all exist only as menu items, so without them no text field in the app can
 * be copied from or pasted into. Zoom and full screen use roles too, so they behave like every other app.
 */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  showAbout(): void;
  showNotices(): void;
  checkForUpdates(): void;
  openLogsFolder(): void;
}

export function menuTemplate(platform: NodeJS.Platform, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  return [
    ...(mac ? [{ role: 'appMenu' } satisfies MenuItemConstructorOptions] : []),
    { role: 'fileMenu' },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'pasteAndMatchStyle' },
        { role: 'delete' },
        { type: 'separator' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'About Intel Desk', click: () => actions.showAbout() },
        { label: 'Third-Party Notices', click: () => actions.showNotices() },
        { label: 'Check for Updates…', click: () => actions.checkForUpdates() },
        { label: 'Open Logs Folder', click: () => actions.openLogsFolder() },
      ],
    },
  ];
}
