/**
 * The third-party notices: scripts/third-party-notices.mjs over the installed packages, and Help → About →
 * Third-Party Notices in the real electron/main.ts against the stand-in Electron.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { cleanup, launchOpened, makeFolders, type Folders } from './launch';

vi.mock('electron', () => import('./fake-electron'));

const root = path.resolve(__dirname, '../..');

describe('scripts/third-party-notices.mjs', () => {
  it('lists each package that ships with its version, licence and text, WalletConnect’s included', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'desk-notices-'));
    try {
      const file = path.join(dir, 'THIRD_PARTY_NOTICES.txt');
      await promisify(execFile)(process.execPath, [path.join(root, 'scripts/third-party-notices.mjs'), file]);
      const text = readFileSync(file, 'utf8');
      const version = (name: string) =>
        (
          JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
            version: string;
          }
        ).version;
      expect(text).toContain(`\nbetter-sqlite3 ${version('better-sqlite3')}\nLicence: MIT\n`);
      expect(text).toContain(`\nviem ${version('viem')}\nLicence: MIT\n`);
      const walletConnect = `\n@walletconnect/universal-provider ${version('@walletconnect/universal-provider')}\nLicence: WALLETCONNECT COMMUNITY LICENSE AGREEMENT\n`;
      expect(text).toContain(walletConnect);
      const licence = readFileSync(
        path.join(root, 'node_modules/@walletconnect/universal-provider/LICENSE.md'),
        'utf8',
      ).trim();
      expect(text.slice(text.indexOf(walletConnect))).toContain(licence);
      // Only what ships: a test runner is no part of the app.
      expect(text).not.toMatch(/\nvitest \d/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Help → About', () => {
  let folders: Folders;
  beforeEach(() => {
    folders = makeFolders();
  });
  afterEach(() => cleanup(folders));

  const help = (electron: Awaited<ReturnType<typeof launchOpened>>['electron'], label: string) =>
    electron.Menu.applicationMenu?.template
      .find((m) => m.role === 'help')
      ?.submenu?.find((i) => i.label === label);

  it('offers the third-party notices, opened as a copy outside the app archive', async () => {
    const notices = 'Intel Desk 0.1.0: third-party notices\n\nbetter-sqlite3 12.0.0\nLicence: MIT\n';
    writeFileSync(path.join(folders.appDir, 'out', 'THIRD_PARTY_NOTICES.txt'), notices);
    const { electron } = await launchOpened(folders);
    electron.fake.messageBoxResponse = 1;
    help(electron, 'About Intel Desk')?.click?.();
    const opened = await electron.fake.pathOpened;
    expect(electron.dialog.messageBoxes[0]).toMatchObject({ buttons: ['OK', 'Third-Party Notices'] });
    expect(electron.dialog.messageBoxes[0]?.['detail']).toContain('WalletConnect Community License');
    expect(opened).toBe(path.join(folders.profile, 'THIRD_PARTY_NOTICES.txt'));
    expect(readFileSync(opened, 'utf8')).toBe(notices);
  });

  it('says so when a build has none', async () => {
    const { electron } = await launchOpened(folders);
    help(electron, 'Third-Party Notices')?.click?.();
    await vi.waitFor(() => expect(electron.dialog.messageBoxes).toHaveLength(1));
    expect(electron.dialog.messageBoxes[0]).toMatchObject({
      message: 'This copy of Intel Desk was built without its third-party notices.',
    });
  });
});
