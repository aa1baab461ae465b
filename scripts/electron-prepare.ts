/**
 * Everything `npm start` needs before it can open Electron: the binary (fetched with Electron's own
 * installer on first run) and better-sqlite3 built for Electron's ABI. Any step that fails says why and how
 * to retry, and `npm start` serves browser mode instead.
 */
import type { Writable } from 'node:stream';
import type { ElectronPackage } from './electron-binary';
import { ensureElectron } from './electron-install';
import { prepareElectronSqlite, type NativeAbiOptions } from './native-abi';

export type PreparedElectron =
  { ready: true; binary: string; nativeBinding: string } | { ready: false; reason: string; retry: string };

export interface PrepareOptions {
  root: string;
  log: (line: string) => void;
  output?: Writable;
  /** Stand-ins for tests: another electron package, other build tools or cache. */
  electron?: ElectronPackage | null;
  native?: Pick<NativeAbiOptions, 'cacheRoot' | 'sqliteDir' | 'prebuildInstall' | 'nodeGyp'>;
  /** Fetch Electron even when an earlier fetch of this version failed. */
  retry?: boolean;
}

export async function prepareElectron(options: PrepareOptions): Promise<PreparedElectron> {
  const installed = await ensureElectron(options);
  if (!installed.found) return { ready: false, reason: installed.reason, retry: installed.retry };
  const native = await prepareElectronSqlite({
    root: options.root,
    log: options.log,
    ...(options.output ? { output: options.output } : {}),
    ...options.native,
    electron: installed.electron,
  });
  if (!native.ok) return { ready: false, reason: native.reason, retry: native.retry };
  return { ready: true, binary: installed.path, nativeBinding: native.binding };
}
