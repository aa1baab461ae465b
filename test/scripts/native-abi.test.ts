/**
 * better-sqlite3 on both ABIs (scripts/native-abi.ts, scripts/electron-prepare.ts): which build Electron
 * gets (cached, prebuilt, rebuilt), that Node's build is never touched, that the cache holds until a version
 * changes, and that a machine which can fetch neither says so. Build tools are stand-ins run as real child
 * processes; Node's own build is loaded for real through the same nativeBinding option Electron uses.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { electronBindingDir, prepareElectronSqlite, ADDON } from '../../scripts/native-abi';
import { prepareElectron } from '../../scripts/electron-prepare';
import { openDeskDb } from '../../src/core/db/open';
import { DeskError } from '../../src/core/base/errors';
import { tempDir } from '../core/helpers';
import { capture, standInElectron, standInSqlite, standInTool, toolCalls } from './stand-ins';

const root = path.resolve(__dirname, '../..');
const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

const OFFLINE_PREBUILT =
  'prebuild-install warn install request to https://github.com/WiseLibs/better-sqlite3/releases/download/v12.11.1/better-sqlite3-v12.11.1-electron-v150-linux-x64.tar.gz failed, reason: getaddrinfo ENOTFOUND github.com';
const OFFLINE_HEADERS =
  'gyp ERR! stack Error: request to https://electronjs.org/headers/v45.4.1/node-v45.4.1-headers.tar.gz failed, reason: getaddrinfo ENOTFOUND electronjs.org';

function setUp(prebuilt: 'builds' | 'fails', rebuild: 'builds' | 'fails', electronVersion = '45.4.1') {
  const dir = tempDir('desk-native-abi-');
  dirs.push(dir);
  const tools = path.join(dir.dir, 'tools');
  const sqliteDir = standInSqlite(path.join(dir.dir, 'better-sqlite3'));
  const lines: string[] = [];
  const output = capture();
  return {
    dir: dir.dir,
    tools,
    sqliteDir,
    lines,
    output,
    cacheRoot: path.join(dir.dir, 'cache'),
    electron: standInElectron(path.join(dir.dir, 'electron'), 'succeeds', electronVersion),
    prebuildInstall: standInTool(tools, 'prebuild-install', prebuilt, OFFLINE_PREBUILT),
    nodeGyp: standInTool(tools, 'node-gyp', rebuild, OFFLINE_HEADERS),
    log: (line: string) => lines.push(line),
  };
}

type SetUp = ReturnType<typeof setUp>;
const prepare = (s: SetUp, electron = s.electron) =>
  prepareElectronSqlite({
    root: s.dir,
    electron,
    log: s.log,
    output: s.output.stream,
    cacheRoot: s.cacheRoot,
    sqliteDir: s.sqliteDir,
    prebuildInstall: s.prebuildInstall,
    nodeGyp: s.nodeGyp,
  });

describe('better-sqlite3 for Electron’s ABI', () => {
  it('takes the prebuilt binary for the electron runtime when one is published', async () => {
    const s = setUp('builds', 'builds');
    const result = await prepare(s);
    const expected = path.join(electronBindingDir(s.cacheRoot, '45.4.1', '12.11.1'), ADDON);
    expect(result).toEqual({ ok: true, binding: expected, source: 'prebuilt' });
    expect(expected).toContain(path.join('cache', 'better-sqlite3-electron-45.4.1-12.11.1'));
    expect(readFileSync(expected, 'utf8')).toBe('electron-abi-150 from prebuild-install');
    const calls = toolCalls(s.tools);
    expect(calls.map((c) => c.tool)).toEqual(['prebuild-install']);
    expect(calls[0]!.args).toEqual(['--runtime', 'electron', '--target', '45.4.1', '--arch', process.arch]);
    // The tool ran on a copy: Node's build is untouched, and the copy is gone.
    expect(calls[0]!.cwd).not.toBe(s.sqliteDir);
    expect(existsSync(calls[0]!.cwd)).toBe(false);
    expect(readFileSync(path.join(s.sqliteDir, 'build', 'Release', ADDON), 'utf8')).toBe('node-abi-115');
  });

  it('rebuilds against Electron’s headers when no prebuilt binary can be had', async () => {
    const s = setUp('fails', 'builds');
    const result = await prepare(s);
    expect(result).toMatchObject({ ok: true, source: 'rebuilt' });
    const calls = toolCalls(s.tools);
    expect(calls.map((c) => c.tool)).toEqual(['prebuild-install', 'node-gyp']);
    expect(calls[1]!.args).toEqual([
      'rebuild',
      '--release',
      '--runtime=electron',
      '--target=45.4.1',
      `--arch=${process.arch}`,
      '--dist-url=https://electronjs.org/headers',
      `--devdir=${path.join(s.cacheRoot, 'electron-gyp')}`,
    ]);
    // The rebuild compiles the package's own source, copied.
    expect(calls[1]!.sources).toBe(true);
    expect(s.output.text()).toContain('ENOTFOUND github.com');
  });

  it('keeps the build until Electron or better-sqlite3 changes, then prepares a new one', async () => {
    const s = setUp('builds', 'builds');
    const first = await prepare(s);
    expect(await prepare(s)).toMatchObject({ ok: true, source: 'cache' });
    expect(await prepare(s)).toMatchObject({ ok: true, source: 'cache' });
    expect(toolCalls(s.tools)).toHaveLength(1);

    const newer = standInElectron(path.join(s.dir, 'electron'), 'succeeds', '45.5.0');
    const next = await prepare(s, newer);
    expect(next).toMatchObject({ ok: true, source: 'prebuilt' });
    expect(toolCalls(s.tools).at(-1)!.args).toContain('45.5.0');
    // The build for the old version is gone; it would never be loaded again.
    expect(first.ok && existsSync(first.binding)).toBe(false);

    standInSqlite(s.sqliteDir, '12.12.0');
    expect(await prepare(s, newer)).toMatchObject({
      ok: true,
      source: 'prebuilt',
      binding: path.join(electronBindingDir(s.cacheRoot, '45.5.0', '12.12.0'), ADDON),
    });
    expect(toolCalls(s.tools)).toHaveLength(3);
  });

  it('says what failed when neither a prebuilt binary nor Electron’s headers can be fetched', async () => {
    const s = setUp('fails', 'fails');
    const result = await prepare(s);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe(
      `better-sqlite3 could not be prepared for Electron 45.4.1: downloading the prebuilt better-sqlite3 for Electron failed (exit 1): ${OFFLINE_PREBUILT}; rebuilding better-sqlite3 for Electron failed (exit 1): ${OFFLINE_HEADERS}`,
    );
    expect(result.retry).toMatch(/github\.com.*electronjs\.org/);
    expect(existsSync(electronBindingDir(s.cacheRoot, '45.4.1', '12.11.1'))).toBe(false);
  });

  it('gives npm start the binary and the binding together, or the reason to serve browser mode', async () => {
    const s = setUp('fails', 'builds');
    const electron = standInElectron(path.join(s.dir, 'fresh-electron'), 'succeeds');
    const native = {
      cacheRoot: s.cacheRoot,
      sqliteDir: s.sqliteDir,
      prebuildInstall: s.prebuildInstall,
      nodeGyp: s.nodeGyp,
    };
    const ready = await prepareElectron({
      root: s.dir,
      electron,
      native,
      log: s.log,
      output: s.output.stream,
    });
    expect(ready).toEqual({
      ready: true,
      binary: path.join(s.dir, 'fresh-electron', 'dist', 'electron'),
      nativeBinding: path.join(electronBindingDir(s.cacheRoot, '45.4.1', '12.11.1'), ADDON),
    });

    const offline = setUp('fails', 'fails');
    const blocked = await prepareElectron({
      root: offline.dir,
      electron: offline.electron,
      native: {
        cacheRoot: offline.cacheRoot,
        sqliteDir: offline.sqliteDir,
        prebuildInstall: offline.prebuildInstall,
        nodeGyp: offline.nodeGyp,
      },
      log: offline.log,
      output: offline.output.stream,
    });
    expect(blocked).toMatchObject({
      ready: false,
      reason: expect.stringContaining('ENOTFOUND electronjs.org'),
    });
  });

  it('opens desk.db with the addon named by nativeBinding (Node’s own build here)', () => {
    const dir = tempDir('desk-native-binding-');
    dirs.push(dir);
    const sqlite = path.dirname(
      createRequire(path.join(root, 'package.json')).resolve('better-sqlite3/package.json'),
    );
    const nodeBuild = path.join(sqlite, 'build', 'Release', ADDON);
    const opened = openDeskDb(path.join(dir.dir, 'desk.db'), () => new Date(), { nativeBinding: nodeBuild });
    expect(opened.db.pragma('user_version', { simple: true })).toBeGreaterThan(0);
    opened.db.close();
  });

  it('stops with the reason when the addon cannot load, and never moves desk.db aside for it', () => {
    const dir = tempDir('desk-native-binding-');
    dirs.push(dir);
    const file = path.join(dir.dir, 'desk.db');
    openDeskDb(file).db.close();
    // An addon built for another ABI fails to load just like this one: dlopen refuses it.
    const foreign = path.join(dir.dir, 'foreign.node');
    writeFileSync(foreign, 'not a shared object');
    let error: unknown = null;
    try {
      openDeskDb(file, () => new Date(), { nativeBinding: foreign });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DeskError);
    expect(error).toMatchObject({
      code: 'sqlite_unavailable',
      kind: 'storage',
      details: { nativeBinding: foreign },
    });
    expect(readdirSync(dir.dir).sort()).toEqual(['desk.db', 'foreign.node']);
  });
});

describe('packaging', () => {
  it('keeps electron-builder rebuilding native modules for Electron and unpacking better-sqlite3', () => {
    const config = readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
    expect(config).toMatch(/^npmRebuild: true$/m);
    expect(config).not.toMatch(/^buildDependenciesFromSource: false$/m);
    expect(config).toMatch(/^\s+- node_modules\/better-sqlite3\/\*\*$/m);
  });
});
