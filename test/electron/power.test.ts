/**
 * The real electron/main.ts against the stand-in Electron, with real core: the OS lock screen and sleep lock
 * an unlocked keystore (decision 0029), so the next purchase asks for the passphrase again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { cleanup, launchOpened, makeFolders, type FakeElectron, type Folders } from './launch';
import { callCore, type FakeWindow } from './window-call';

vi.mock('electron', () => import('./fake-electron'));

let folders: Folders;
beforeEach(() => {
  folders = makeFolders();
});
afterEach(() => cleanup(folders));

const PASSPHRASE = 'a long and unusual passphrase for the lock test';

async function unlocked(electron: FakeElectron, window: FakeWindow): Promise<boolean> {
  const status = await callCore(electron, window, 'wallet.status', {});
  return (status as { unlocked: boolean }).unlocked;
}

describe('the wallet and the OS', () => {
  it('locks an unlocked keystore on the lock screen and on sleep', async () => {
    const { electron, window } = await launchOpened(folders);
    await callCore(electron, window, 'wallet.import', {
      privateKey: generatePrivateKey(),
      passphrase: PASSPHRASE,
    });
    expect(await unlocked(electron, window)).toBe(true);
    electron.powerMonitor.emit('lock-screen');
    await expect.poll(() => unlocked(electron, window)).toBe(false);
    await callCore(electron, window, 'wallet.unlock', { passphrase: PASSPHRASE });
    expect(await unlocked(electron, window)).toBe(true);
    electron.powerMonitor.emit('suspend');
    await expect.poll(() => unlocked(electron, window)).toBe(false);
    const log = readFileSync(path.join(folders.profile, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('The wallet was locked: the screen was locked.');
    expect(log).toContain('The wallet was locked: the computer is going to sleep.');
  });
});
