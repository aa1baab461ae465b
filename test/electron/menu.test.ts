/** The menu template per platform: macOS gets the app menu first, the others do not. */
import { describe, expect, it } from 'vitest';
import { menuTemplate } from '../../electron/menu';

const actions = {
  showAbout: () => undefined,
  showNotices: () => undefined,
  checkForUpdates: () => undefined,
  openLogsFolder: () => undefined,
};
const tops = (platform: NodeJS.Platform) => menuTemplate(platform, actions).map((m) => m.role ?? m.label);

describe('menuTemplate', () => {
  it('puts the app menu (About, Hide, Quit) first on macOS only', () => {
    expect(tops('darwin')).toEqual(['appMenu', 'fileMenu', 'Edit', 'View', 'windowMenu', 'help']);
    expect(tops('win32')).toEqual(['fileMenu', 'Edit', 'View', 'windowMenu', 'help']);
    expect(tops('linux')).toEqual(['fileMenu', 'Edit', 'View', 'windowMenu', 'help']);
  });

  it('runs the Help actions it was given', () => {
    const ran: string[] = [];
    const help = menuTemplate('linux', {
      showAbout: () => ran.push('about'),
      showNotices: () => ran.push('notices'),
      checkForUpdates: () => ran.push('updates'),
      openLogsFolder: () => ran.push('logs'),
    }).find((m) => m.role === 'help');
    const items = Array.isArray(help?.submenu) ? help.submenu : [];
    for (const item of items) item.click?.({} as never, undefined, {} as never);
    expect(ran).toEqual(['about', 'notices', 'updates', 'logs']);
    expect(items.map((item) => item.label)).toContain('Check for Updates…');
  });
});
