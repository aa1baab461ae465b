/**
 * better-sqlite3 for Electron's ABI, kept beside Node's build. node_modules/better-sqlite3 stays built for
 * Node (tests, CLI, browser mode); Electron loads a copy built for its own ABI through better-sqlite3's
 * `nativeBinding` option. `npm start` prepares that copy before it opens Electron: the prebuilt binary
 * better-sqlite3 publishes for the electron runtime when there is one (prebuild-install), else a rebuild
 * against Electron's headers (node-gyp). It is cached in node_modules/.cache/intel-desk/ under a name holding
 * both versions, so it is prepared again only when Electron or better-sqlite3 changes.
 */
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { z } from 'zod';
import type { ElectronPackage } from './electron-binary';
import { runTool } from './run-tool';

export const ADDON = 'better_sqlite3.node';
const PREFIX = 'better-sqlite3-electron-';

export interface NativeAbiOptions {
  root: string;
  electron: ElectronPackage;
  log: (line: string) => void;
  /** Default: node_modules/.cache/intel-desk under root. */
  cacheRoot?: string;
  /** The better-sqlite3 package whose source and version are used; default: the one root resolves. */
  sqliteDir?: string;
  /** prebuild-install's bin (default: the one better-sqlite3 depends on). */
  prebuildInstall?: string;
  /** node-gyp's bin (default: the one node_modules holds). */
  nodeGyp?: string;
  /** Deadlines: a prebuilt download is small, a rebuild compiles SQLite. */
  prebuiltTimeoutMs?: number;
  rebuildTimeoutMs?: number;
  heartbeatMs?: number;
  output?: Writable;
}

export type NativeBinding =
  | { ok: true; binding: string; source: 'cache' | 'prebuilt' | 'rebuilt' }
  | { ok: false; reason: string; retry: string };

const versionOf = (dir: string) =>
  z
    .object({ version: z.string().min(1) })
    .parse(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))).version;

const manifestSchema = z.object({
  electron: z.string(),
  betterSqlite3: z.string(),
  source: z.enum(['prebuilt', 'rebuilt']),
});

function resolveFrom(dir: string, request: string): string | null {
  try {
    return createRequire(path.join(dir, 'package.json')).resolve(request);
  } catch {
    return null;
  }
}

/** Where the Electron build for these two versions lives (whether or not it is there yet). */
export function electronBindingDir(
  cacheRoot: string,
  electronVersion: string,
  sqliteVersion: string,
): string {
  return path.join(cacheRoot, `${PREFIX}${electronVersion}-${sqliteVersion}`);
}

/** A cached build counts only with its manifest, written last, naming the same two versions. */
function cached(dir: string, electron: string, betterSqlite3: string): string | null {
  const binding = path.join(dir, ADDON);
  const manifestFile = path.join(dir, 'manifest.json');
  if (!existsSync(binding) || !existsSync(manifestFile)) return null;
  const manifest = manifestSchema.safeParse(JSON.parse(readFileSync(manifestFile, 'utf8')));
  if (!manifest.success) return null;
  return manifest.data.electron === electron && manifest.data.betterSqlite3 === betterSqlite3
    ? binding
    : null;
}

export async function prepareElectronSqlite(options: NativeAbiOptions): Promise<NativeBinding> {
  const retry =
    'run `npm start` again with access to https://github.com (prebuilt binaries) or https://electronjs.org (headers for a rebuild)';
  const sqliteDir =
    options.sqliteDir ??
    (() => {
      const manifest = resolveFrom(options.root, 'better-sqlite3/package.json');
      return manifest ? path.dirname(manifest) : null;
    })();
  if (!sqliteDir || !existsSync(path.join(sqliteDir, 'package.json'))) {
    return { ok: false, reason: 'better-sqlite3 is not installed', retry: 'run `npm install`' };
  }
  const electronVersion = options.electron.version;
  const sqliteVersion = versionOf(sqliteDir);
  const cacheRoot = options.cacheRoot ?? path.join(options.root, 'node_modules', '.cache', 'intel-desk');
  const target = electronBindingDir(cacheRoot, electronVersion, sqliteVersion);
  const hit = cached(target, electronVersion, sqliteVersion);
  if (hit) return { ok: true, binding: hit, source: 'cache' };

  options.log(
    `Preparing better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (its own ABI; Node keeps its build)…`,
  );
  mkdirSync(cacheRoot, { recursive: true });
  const staging = path.join(cacheRoot, `staging-${process.pid}-${Date.now()}`);
  // Both tools write build/Release in their working folder; a copy keeps Node's build untouched.
  cpSync(sqliteDir, staging, {
    recursive: true,
    filter: (source) =>
      !['build', 'node_modules'].includes(path.relative(sqliteDir, source).split(path.sep)[0] ?? ''),
  });
  const built = path.join(staging, 'build', 'Release', ADDON);
  const common = {
    cwd: staging,
    log: options.log,
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
    ...(options.output ? { output: options.output } : {}),
  };
  try {
    const failures: string[] = [];
    let source: 'prebuilt' | 'rebuilt' | null = null;
    const prebuildInstall = options.prebuildInstall ?? resolveFrom(sqliteDir, 'prebuild-install/bin.js');
    if (prebuildInstall) {
      options.log(`Looking for a prebuilt better-sqlite3 for Electron ${electronVersion}…`);
      const run = await runTool({
        ...common,
        what: 'downloading the prebuilt better-sqlite3 for Electron',
        command: process.execPath,
        args: [prebuildInstall, '--runtime', 'electron', '--target', electronVersion, '--arch', process.arch],
        timeoutMs: options.prebuiltTimeoutMs ?? 2 * 60_000,
      });
      if (run.ok && existsSync(built)) source = 'prebuilt';
      else failures.push(run.ok ? 'prebuild-install finished without a binary' : run.reason);
    } else failures.push('prebuild-install is not installed');

    const nodeGyp = options.nodeGyp ?? resolveFrom(options.root, 'node-gyp/bin/node-gyp.js');
    if (!source && nodeGyp) {
      options.log(
        `No prebuilt binary; rebuilding better-sqlite3 against Electron ${electronVersion}'s headers…`,
      );
      const run = await runTool({
        ...common,
        what: 'rebuilding better-sqlite3 for Electron',
        command: process.execPath,
        args: [
          nodeGyp,
          'rebuild',
          '--release',
          '--runtime=electron',
          `--target=${electronVersion}`,
          `--arch=${process.arch}`,
          '--dist-url=https://electronjs.org/headers',
          `--devdir=${path.join(cacheRoot, 'electron-gyp')}`,
        ],
        timeoutMs: options.rebuildTimeoutMs ?? 10 * 60_000,
      });
      if (run.ok && existsSync(built)) source = 'rebuilt';
      else failures.push(run.ok ? 'node-gyp finished without a binary' : run.reason);
    } else if (!source) failures.push('node-gyp is not installed, so there is no rebuild to fall back on');

    if (!source) {
      return {
        ok: false,
        reason: `better-sqlite3 could not be prepared for Electron ${electronVersion}: ${failures.join('; ')}`,
        retry,
      };
    }
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    copyFileSync(built, path.join(target, ADDON));
    writeFileSync(
      path.join(target, 'manifest.json'),
      `${JSON.stringify({ electron: electronVersion, betterSqlite3: sqliteVersion, source }, null, 2)}\n`,
    );
    // Builds for other versions are never loaded again.
    for (const name of readdirSync(cacheRoot)) {
      if (name.startsWith(PREFIX) && path.join(cacheRoot, name) !== target) {
        rmSync(path.join(cacheRoot, name), { recursive: true, force: true });
      }
    }
    options.log(`better-sqlite3 for Electron ${electronVersion} is ready (${source}).`);
    return { ok: true, binding: path.join(target, ADDON), source };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
