/**
 * The third-party notices: scripts/third-party-notices.mjs over the installed packages, and Help → About →
 * Third-Party Notices in the real electron/main.ts against the stand-in Electron.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { cleanup, launchOpened, makeFolders, type Folders } from './launch';
import { WALLETCONNECT_ATTRIBUTION } from '../../electron/app-menu';
// @ts-expect-error plain ESM module without types: the build runs it with Node alone
import { shippedPackages } from '../../scripts/third-party-notices.mjs';

const shipped = shippedPackages as (
  root: string,
  overrides?: Record<string, { licence: string; source: string }>,
) => { problems: string[]; packages: Array<{ name: string; licence: string }> };

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
      // The copyright line the licence requires "in the notices", in its words, heads the file.
      expect(licence).toContain(`“${WALLETCONNECT_ATTRIBUTION}”`);
      expect(text.split('\n').slice(0, 4)).toEqual([
        `Intel Desk ${(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version}: third-party notices`,
        '',
        WALLETCONNECT_ATTRIBUTION,
        '',
      ]);
      // Every package names its licence; png-js declares none, so it comes from its own LICENSE file.
      expect(text).not.toContain('Licence: UNKNOWN');
      expect(text).toMatch(
        /\npng-js 2\.0\.0\nLicence: MIT \(not declared in its package\.json: from its LICENSE file/,
      );
      // Only what ships: a test runner is no part of the app.
      expect(text).not.toMatch(/\nvitest \d/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a package whose licence cannot be named', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'desk-notices-root-'));
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ version: '1.0.0', dependencies: { mystery: '1' } }),
    );
    mkdirSync(path.join(dir, 'node_modules', 'mystery'), { recursive: true });
    writeFileSync(
      path.join(dir, 'node_modules', 'mystery', 'package.json'),
      JSON.stringify({ name: 'mystery', version: '1.2.3' }),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stops the notices until an override names it with its source', () => {
    expect(shipped(dir, {}).problems).toEqual([
      'mystery@1.2.3 names no licence: read its files and add it to LICENCE_OVERRIDES with the source',
    ]);
    const named = shipped(dir, { 'mystery@1.2.3': { licence: 'ISC', source: 'its README' } });
    expect(named.problems).toEqual([]);
    expect(named.packages).toEqual([expect.objectContaining({ name: 'mystery', licence: 'ISC' })]);
  });

  it('refuses an override for a version that does not ship, or a package that now declares one', () => {
    expect(shipped(dir, { 'mystery@1.2.2': { licence: 'ISC', source: 'x' } }).problems).toContain(
      'LICENCE_OVERRIDES names mystery@1.2.2, which does not ship: remove it',
    );
    writeFileSync(
      path.join(dir, 'node_modules', 'mystery', 'package.json'),
      JSON.stringify({ name: 'mystery', version: '1.2.3', license: 'MIT' }),
    );
    expect(shipped(dir, { 'mystery@1.2.3': { licence: 'ISC', source: 'x' } }).problems).toEqual([
      'mystery@1.2.3 now declares MIT: remove its LICENCE_OVERRIDES entry',
    ]);
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
    expect(electron.dialog.messageBoxes[0]?.['detail']).toContain(WALLETCONNECT_ATTRIBUTION);
    expect(String(electron.app.aboutPanel?.['copyright'])).toContain(WALLETCONNECT_ATTRIBUTION);
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
