/**
 * The installed app's library folder, worked out without Electron (decision 0047): Electron's appData for each
 * system joined with the app's name and desk/, and the CLI's default between it and ~/.intel-desk.
 */
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json';
import {
  APP_NAME,
  appLibraryFolder,
  defaultLibraryFolder,
  homeLibraryFolder,
  type Machine,
} from '../../src/core/base/app-data-folder';

const linux: Machine = { platform: 'linux', env: {}, home: '/home/ana' };
const mac: Machine = { platform: 'darwin', env: {}, home: '/Users/ana' };
const windows: Machine = {
  platform: 'win32',
  env: { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' },
  home: 'C:\\Users\\ana',
};

describe("the installed app's library folder", () => {
  it('is named as Electron names the app: package.json productName', () => {
    expect(APP_NAME).toBe('Intel Desk');
    expect(packageJson.productName).toBe(APP_NAME);
  });

  it('is desk/ in the userData folder of each system', () => {
    expect(appLibraryFolder(linux)).toBe('/home/ana/.config/Intel Desk/desk');
    expect(appLibraryFolder(mac)).toBe('/Users/ana/Library/Application Support/Intel Desk/desk');
    expect(appLibraryFolder(windows)).toBe('C:\\Users\\ana\\AppData\\Roaming\\Intel Desk\\desk');
  });

  it('follows $XDG_CONFIG_HOME on Linux and %APPDATA% on Windows, when each is an absolute path', () => {
    expect(appLibraryFolder({ ...linux, env: { XDG_CONFIG_HOME: '/srv/ana/config' } })).toBe(
      '/srv/ana/config/Intel Desk/desk',
    );
    expect(appLibraryFolder({ ...linux, env: { XDG_CONFIG_HOME: 'relative/config' } })).toBe(
      '/home/ana/.config/Intel Desk/desk',
    );
    expect(appLibraryFolder({ ...windows, env: { APPDATA: 'D:\\Profiles\\ana' } })).toBe(
      'D:\\Profiles\\ana\\Intel Desk\\desk',
    );
    expect(appLibraryFolder({ ...windows, env: {} })).toBe(
      'C:\\Users\\ana\\AppData\\Roaming\\Intel Desk\\desk',
    );
    // macOS has no such variable: a stray XDG_CONFIG_HOME changes nothing there.
    expect(appLibraryFolder({ ...mac, env: { XDG_CONFIG_HOME: '/tmp/x' } })).toBe(
      '/Users/ana/Library/Application Support/Intel Desk/desk',
    );
  });
});

describe("the CLI's default library", () => {
  it("is the app's where that folder exists, else ~/.intel-desk", () => {
    for (const machine of [linux, mac, windows]) {
      const app = appLibraryFolder(machine);
      expect(defaultLibraryFolder(machine, (dir) => dir === app)).toEqual({ dir: app, from: 'app' });
      expect(defaultLibraryFolder(machine, () => false)).toEqual({
        dir: homeLibraryFolder(machine),
        from: 'home',
      });
    }
    expect(homeLibraryFolder(linux)).toBe('/home/ana/.intel-desk');
    expect(homeLibraryFolder(windows)).toBe('C:\\Users\\ana\\.intel-desk');
  });
});
