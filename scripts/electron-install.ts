/**
 * First run: `npm install` of electron does not download the binary (it is fetched on first use), so
 * `npm start` runs the electron package's own installer (its `install-electron` bin, the same code
 * `require('electron')` would run) with visible progress and a deadline. When that fails, the caller falls
 * back to browser mode with the reason and the command to retry.
 */
import path from 'node:path';
import { findElectronBinary, findElectronPackage, type ElectronPackage } from './electron-binary';
import { runTool } from './run-tool';
import type { Writable } from 'node:stream';

export const RETRY_ELECTRON =
  'run `npx install-electron` in the project folder (it needs https://github.com, or ELECTRON_MIRROR), then `npm start` again';

export interface InstallOptions {
  root: string;
  /** The electron package; by default the one findElectronPackage finds. */
  electron?: ElectronPackage | null;
  log: (line: string) => void;
  /** Default 10 minutes: the download is about 100 MB. */
  timeoutMs?: number;
  heartbeatMs?: number;
  output?: Writable;
}

export type InstalledElectron =
  | { found: true; path: string; electron: ElectronPackage; installed: boolean }
  | { found: false; reason: string; retry: string };

export async function ensureElectron(options: InstallOptions): Promise<InstalledElectron> {
  const electron = options.electron === undefined ? findElectronPackage(options.root) : options.electron;
  if (!electron) {
    return { found: false, reason: 'the electron package is not installed', retry: 'run `npm install`' };
  }
  const before = findElectronBinary(options.root, electron);
  if (before.found) return { found: true, path: before.path, electron, installed: false };
  if (!electron.installer) {
    return {
      found: false,
      reason: `${before.reason}, and electron ${electron.version} has no install-electron installer`,
      retry: RETRY_ELECTRON,
    };
  }
  options.log(`The Electron binary is not here yet (${before.reason}).`);
  options.log(`Fetching Electron ${electron.version} with its own installer (about 100 MB, once)…`);
  const run = await runTool({
    what: `fetching Electron ${electron.version}`,
    command: process.execPath,
    args: [electron.installer],
    cwd: electron.dir,
    timeoutMs: options.timeoutMs ?? 10 * 60_000,
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
    log: options.log,
    ...(options.output ? { output: options.output } : {}),
  });
  if (!run.ok) return { found: false, reason: run.reason, retry: RETRY_ELECTRON };
  const after = findElectronBinary(options.root, electron);
  if (!after.found) {
    return {
      found: false,
      reason: `Electron's installer (${path.relative(options.root, electron.installer)}) finished, but ${after.reason}`,
      retry: RETRY_ELECTRON,
    };
  }
  options.log(`Electron ${electron.version} is installed.`);
  return { found: true, path: after.path, electron, installed: true };
}
