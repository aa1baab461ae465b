/**
 * First run of `npm start` (scripts/electron-install.ts): with the Electron binary missing, the electron
 * package's own installer runs as a real child process with its output shown and a heartbeat; success opens
 * the way to the window, a failure or a hang (stopped at the deadline) is named with how to retry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureElectron, FETCH_FAILED_FILE, RETRY_ELECTRON } from '../../scripts/electron-install';
import { findElectronBinary } from '../../scripts/electron-binary';
import { tempDir } from '../core/helpers';
import { capture, installerPid, isRunning, standInElectron } from './stand-ins';

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

function setUp(behaviour: Parameters<typeof standInElectron>[1]) {
  const dir = tempDir('desk-electron-install-');
  dirs.push(dir);
  const packageDir = path.join(dir.dir, 'electron');
  const electron = standInElectron(packageDir, behaviour);
  const lines: string[] = [];
  const output = capture();
  return { root: dir.dir, packageDir, electron, lines, output, log: (line: string) => lines.push(line) };
}

describe('fetching Electron on first run', () => {
  it('runs the installer when the binary is missing, shows its output, and finds the binary', async () => {
    const s = setUp('succeeds');
    expect(findElectronBinary(s.root, s.electron).found).toBe(false);
    const result = await ensureElectron({
      root: s.root,
      electron: s.electron,
      log: s.log,
      output: s.output.stream,
    });
    expect(result).toMatchObject({
      found: true,
      installed: true,
      path: path.join(s.packageDir, 'dist', 'electron'),
    });
    expect(s.lines.join('\n')).toContain('Fetching Electron 45.4.1 with its own installer');
    expect(s.output.text()).toContain('Downloading electron-v45.4.1-linux-x64.zip: 100%');
    expect(installerPid(s.packageDir)).not.toBeNull();
  });

  it('does not run the installer when the binary is already there', async () => {
    const s = setUp('succeeds');
    await ensureElectron({ root: s.root, electron: s.electron, log: s.log, output: s.output.stream });
    // An installer that would fail now: it must not be asked at all.
    const failing = standInElectron(s.packageDir, 'fails');
    rmSync(path.join(s.packageDir, 'installer-ran'));
    const result = await ensureElectron({ root: s.root, electron: failing, log: s.log });
    expect(result).toMatchObject({ found: true, installed: false });
    expect(installerPid(s.packageDir)).toBeNull();
  });

  it('names the installer’s failure and how to retry', async () => {
    const s = setUp('fails');
    const result = await ensureElectron({
      root: s.root,
      electron: s.electron,
      log: s.log,
      output: s.output.stream,
    });
    expect(result.found).toBe(false);
    if (result.found) return;
    expect(result.reason).toBe(
      'fetching Electron 45.4.1 failed (exit 1): HTTPError: Response code 404 (Not Found) for https://github.com/electron/electron/releases/download/v45.4.1/electron-v45.4.1-linux-x64.zip',
    );
    expect(result.retry).toBe(RETRY_ELECTRON);
    expect(s.output.text()).toContain('HTTPError');
    expect(s.output.text()).not.toContain('at Request.<anonymous>');
  });

  it('remembers a failed fetch of this version until asked to retry, and forgets it once the binary is there', async () => {
    const s = setUp('fails');
    await ensureElectron({ root: s.root, electron: s.electron, log: s.log, output: s.output.stream });
    rmSync(path.join(s.packageDir, 'installer-ran'));

    const remembered = await ensureElectron({ root: s.root, electron: s.electron, log: s.log });
    expect(installerPid(s.packageDir)).toBeNull();
    expect(remembered).toMatchObject({ found: false, retry: RETRY_ELECTRON });
    if (remembered.found) return;
    expect(remembered.reason).toMatch(
      /^fetching Electron 45\.4\.1 failed at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(fetching Electron 45\.4\.1 failed \(exit 1\): HTTPError: .*\), so it was not tried again$/,
    );

    // Another version of electron is another download: its fetch is tried.
    const newer = standInElectron(s.packageDir, 'fails', '45.5.0');
    await ensureElectron({ root: s.root, electron: newer, log: s.log, output: s.output.stream });
    expect(installerPid(s.packageDir)).not.toBeNull();
    rmSync(path.join(s.packageDir, 'installer-ran'));

    const fixed = standInElectron(s.packageDir, 'succeeds', '45.5.0');
    const retried = await ensureElectron({
      root: s.root,
      electron: fixed,
      log: s.log,
      output: s.output.stream,
      retry: true,
    });
    expect(retried).toMatchObject({ found: true, installed: true });
    expect(existsSync(path.join(s.packageDir, FETCH_FAILED_FILE))).toBe(false);
  });

  it('stops a hanging installer at the deadline, with a heartbeat while it waits', async () => {
    const s = setUp('hangs');
    const result = await ensureElectron({
      root: s.root,
      electron: s.electron,
      log: s.log,
      output: s.output.stream,
      timeoutMs: 1_500,
      heartbeatMs: 300,
    });
    expect(result).toMatchObject({
      found: false,
      reason: 'fetching Electron 45.4.1 did not finish within 2 s and was stopped',
    });
    expect(s.lines.some((line) => line.startsWith('… still fetching Electron 45.4.1'))).toBe(true);
    const pid = installerPid(s.packageDir);
    expect(pid).not.toBeNull();
    expect(isRunning(pid!)).toBe(false);
  });

  it('says so when the installer succeeds but leaves no binary', async () => {
    const s = setUp('forgets-binary');
    const result = await ensureElectron({
      root: s.root,
      electron: s.electron,
      log: s.log,
      output: s.output.stream,
    });
    expect(result).toMatchObject({ found: false });
    if (result.found) return;
    expect(result.reason).toMatch(
      /^Electron's installer \(electron\/install\.js\) finished, but the Electron binary was never downloaded/,
    );
  });

  it('says when there is no electron package at all', async () => {
    const s = setUp('succeeds');
    expect(await ensureElectron({ root: s.root, electron: null, log: s.log })).toEqual({
      found: false,
      reason: 'the electron package is not installed',
      retry: 'run `npm install`',
    });
  });
});
