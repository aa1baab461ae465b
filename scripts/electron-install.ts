/**
 * First run: `npm install` of electron does not download the binary (it is fetched on first use), so
 * `npm start` runs the electron package's own installer (its `install-electron` bin, the same code
 * `require('electron')` would run) with visible progress and a deadline. When that fails, the caller falls
 * back to browser mode with the reason and the command to retry.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { findElectronBinary, findElectronPackage, type ElectronPackage } from './electron-binary';
import { runTool } from './run-tool';
import type { Writable } from 'node:stream';

export const RETRY_ELECTRON =
  'run `npm start -- --retry-electron` (it needs https://github.com, or ELECTRON_MIRROR); a plain `npm start` does not try a failed fetch again';

/**
 * A failed fetch is remembered beside the package it was for (inside node_modules, so a reinstall of electron
 * forgets it): without it every `npm start` on a machine that cannot reach the download waits for the same
 * failure again.
 */
export const FETCH_FAILED_FILE = '.intel-desk-fetch-failed.json';

const failureSchema = z.object({ version: z.string(), failedAt: z.string(), reason: z.string() });
type Failure = z.infer<typeof failureSchema>;

function rememberedFailure(electron: ElectronPackage): Failure | null {
  try {
    const found = failureSchema.safeParse(
      JSON.parse(readFileSync(path.join(electron.dir, FETCH_FAILED_FILE), 'utf8')),
    );
    return found.success && found.data.version === electron.version ? found.data : null;
  } catch {
    return null;
  }
}

function remember(electron: ElectronPackage, reason: string): void {
  const failure: Failure = { version: electron.version, failedAt: new Date().toISOString(), reason };
  try {
    writeFileSync(path.join(electron.dir, FETCH_FAILED_FILE), `${JSON.stringify(failure)}\n`);
  } catch {
    // A read-only node_modules only costs the next start another attempt.
  }
}

const forget = (electron: ElectronPackage) =>
  rmSync(path.join(electron.dir, FETCH_FAILED_FILE), { force: true });

export interface InstallOptions {
  root: string;
  /** The electron package; by default the one findElectronPackage finds. */
  electron?: ElectronPackage | null;
  log: (line: string) => void;
  /** Fetch even when an earlier fetch of this version failed (`npm start -- --retry-electron`). */
  retry?: boolean;
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
  if (before.found) {
    forget(electron);
    return { found: true, path: before.path, electron, installed: false };
  }
  const failed = options.retry ? null : rememberedFailure(electron);
  if (failed) {
    return {
      found: false,
      reason: `fetching Electron ${electron.version} failed at ${failed.failedAt.slice(0, 16).replace('T', ' ')} UTC (${failed.reason}), so it was not tried again`,
      retry: RETRY_ELECTRON,
    };
  }
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
  if (!run.ok) {
    remember(electron, run.reason);
    return { found: false, reason: run.reason, retry: RETRY_ELECTRON };
  }
  const after = findElectronBinary(options.root, electron);
  if (!after.found) {
    const reason = `Electron's installer (${path.relative(options.root, electron.installer)}) finished, but ${after.reason}`;
    remember(electron, reason);
    return { found: false, reason, retry: RETRY_ELECTRON };
  }
  forget(electron);
  options.log(`Electron ${electron.version} is installed.`);
  return { found: true, path: after.path, electron, installed: true };
}
