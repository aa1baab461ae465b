/**
 * Launches the real electron/main.ts against the recording stand-in (fake-electron.ts) with a temp app folder,
 * profile and data folder, as one run of the app; `vi.mock('electron', …)` must be declared by the test file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';
import { closedPortUrl } from '../closed-port';

export type FakeElectron = typeof import('./fake-electron');

export interface Folders {
  root: string;
  appDir: string;
  dataDir: string;
  /** The Electron profile main derives from the data folder. */
  profile: string;
}

export function makeFolders(): Folders {
  const root = mkdtempSync(path.join(tmpdir(), 'desk-shell-'));
  const appDir = path.join(root, 'app');
  mkdirSync(path.join(appDir, 'out', 'renderer', 'assets'), { recursive: true });
  writeFileSync(
    path.join(appDir, 'out', 'renderer', 'index.html'),
    '<!doctype html><title>Intel Desk</title>',
  );
  writeFileSync(path.join(appDir, 'out', 'renderer', 'assets', 'app.js'), 'export {};');
  const dataDir = path.join(root, 'data');
  return { root, appDir, dataDir, profile: path.join(dataDir, 'electron') };
}

type Listener = (...args: unknown[]) => void;
/** process.on/off/listeners for the two events main listens to, under one name type. */
const fatalEvents = {
  uncaughtException: () => process.listeners('uncaughtException') as Listener[],
  unhandledRejection: () => process.listeners('unhandledRejection') as Listener[],
};

export interface LaunchOptions {
  lock?: boolean;
  env?: Record<string, string | undefined>;
  before?: (electron: FakeElectron) => void;
}

/** Every run started by launch(), so cleanup can quit the ones a test left running. */
const running: FakeElectron[] = [];
const baseline = new Set([...fatalEvents.uncaughtException(), ...fatalEvents.unhandledRejection()]);

export async function launch(folders: Folders, options: LaunchOptions = {}): Promise<FakeElectron> {
  vi.resetModules();
  const electron = (await import('electron')) as unknown as FakeElectron;
  // The mocked module outlives resetModules; reset() gives this launch an Electron of its own.
  electron.reset();
  electron.app.appPath = folders.appDir;
  electron.app.setPath('userData', path.join(folders.root, 'default-profile'));
  electron.app.lockGranted = options.lock ?? true;
  options.before?.(electron);
  const env: Record<string, string | undefined> = {
    INTEL_DESK_DATA_DIR: folders.dataDir,
    INTEL_DESK_DEMO: undefined,
    INTEL_DESK_DEMO_KEY: undefined,
    INTEL_DESK_SERVICE_URL: await closedPortUrl('/'),
    INTEL_DESK_RPC_URL: undefined,
    ...options.env,
  };
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  running.push(electron);
  await import('../../electron/main');
  return electron;
}

/** Quits every run still open (closing its core), then forgets main's process-wide error listeners. */
export async function cleanup(folders: Folders): Promise<void> {
  for (const electron of running.splice(0)) {
    const done = Promise.race([electron.fake.quitted, electron.fake.exited]);
    electron.app.quit();
    await done;
  }
  for (const listener of fatalEvents.uncaughtException()) {
    if (!baseline.has(listener)) process.off('uncaughtException', listener);
  }
  for (const listener of fatalEvents.unhandledRejection()) {
    if (!baseline.has(listener)) process.off('unhandledRejection', listener);
  }
  vi.unstubAllEnvs();
  rmSync(folders.root, { recursive: true, force: true });
}

/** Launches main and waits for its window; a start that ends in the error dialog fails with its text. */
export async function launchOpened(folders: Folders, options: LaunchOptions = {}) {
  const electron = await launch(folders, options);
  const window = await Promise.race([
    electron.fake.windowOpened,
    electron.fake.errorBoxShown.then(({ content }) => Promise.reject(new Error(`main failed: ${content}`))),
  ]);
  return { electron, window };
}
