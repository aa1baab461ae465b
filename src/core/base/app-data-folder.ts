/**
 * Where the installed app keeps its library, worked out without Electron, so the CLI and `intel-desk mcp`
 * read the same library as the app (decision 0047). Electron's userData folder is its appData folder joined
 * with the app's name (package.json's productName, else its name); the app keeps its library in `desk/`
 * inside it (electron/main.ts). Pure: the machine is passed in, so every system's answer is tested anywhere.
 */
import path from 'node:path';
import packageJson from '../../../package.json';

/** The name Electron gives the app, and so its userData folder: package.json's productName, which it prefers. */
export const APP_NAME: string = packageJson.productName;

/** What the answer depends on: the system, its environment and the person's home folder. */
export interface Machine {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

/** The variable's value when it is an absolute path on this system; a relative one names no folder. */
function absolute(machine: Machine, name: string): string | null {
  const value = machine.env[name];
  const paths = machine.platform === 'win32' ? path.win32 : path.posix;
  return value && paths.isAbsolute(value) ? value : null;
}

/** Electron's appData: %APPDATA% on Windows, Application Support on macOS, $XDG_CONFIG_HOME or ~/.config else. */
function appDataFolder(machine: Machine): string {
  if (machine.platform === 'win32')
    return absolute(machine, 'APPDATA') ?? path.win32.join(machine.home, 'AppData', 'Roaming');
  if (machine.platform === 'darwin') return path.posix.join(machine.home, 'Library', 'Application Support');
  return absolute(machine, 'XDG_CONFIG_HOME') ?? path.posix.join(machine.home, '.config');
}

/** The installed app's library folder on this machine, whether or not the app ever ran here. */
export function appLibraryFolder(machine: Machine): string {
  const paths = machine.platform === 'win32' ? path.win32 : path.posix;
  return paths.join(appDataFolder(machine), APP_NAME, 'desk');
}

/** The CLI's own library folder, for a machine where the app has none. */
export function homeLibraryFolder(machine: Machine): string {
  return (machine.platform === 'win32' ? path.win32 : path.posix).join(machine.home, '.intel-desk');
}

export type DefaultLibrary = { dir: string; from: 'app' | 'home' };

/** The app's library when it exists on this machine, else the CLI's own. */
export function defaultLibraryFolder(machine: Machine, isFolder: (dir: string) => boolean): DefaultLibrary {
  const app = appLibraryFolder(machine);
  return isFolder(app) ? { dir: app, from: 'app' } : { dir: homeLibraryFolder(machine), from: 'home' };
}
