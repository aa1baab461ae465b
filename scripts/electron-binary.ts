/**
 * Where the Electron binary is, without triggering the download `require('electron')` attempts when it is
 * missing (scripts/electron-install.ts runs that download on purpose, with progress and a deadline).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';

export type ElectronBinary = { found: true; path: string } | { found: false; reason: string };

export interface ElectronPackage {
  dir: string;
  version: string;
  /** The package's own installer (its `install-electron` bin), which downloads and unpacks the binary. */
  installer: string | null;
}

const manifestSchema = z.object({
  name: z.literal('electron'),
  version: z.string().min(1),
  bin: z.record(z.string(), z.string()).optional(),
});

/**
 * The electron package this checkout uses: `override` (INTEL_DESK_ELECTRON_PACKAGE, for a stand-in in
 * tests or an Electron kept elsewhere) or the one node_modules resolves from `root`.
 */
export function findElectronPackage(
  root: string,
  override = process.env['INTEL_DESK_ELECTRON_PACKAGE'],
): ElectronPackage | null {
  let dir: string;
  if (override) dir = path.resolve(override);
  else {
    try {
      dir = path.dirname(createRequire(path.join(root, 'package.json')).resolve('electron/package.json'));
    } catch {
      return null;
    }
  }
  const manifestFile = path.join(dir, 'package.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = manifestSchema.safeParse(JSON.parse(readFileSync(manifestFile, 'utf8')));
  if (!manifest.success) return null;
  const installer = manifest.data.bin?.['install-electron'];
  return {
    dir,
    version: manifest.data.version,
    installer: installer ? path.join(dir, installer) : null,
  };
}

export function findElectronBinary(root: string, electron = findElectronPackage(root)): ElectronBinary {
  if (!electron) return { found: false, reason: 'the electron package is not installed' };
  const pathFile = path.join(electron.dir, 'path.txt');
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const binary = override
    ? path.join(override, relative ?? 'electron')
    : relative
      ? path.join(electron.dir, 'dist', relative)
      : null;
  if (!binary)
    return {
      found: false,
      reason: `the Electron binary was never downloaded (${path.join(electron.dir, 'path.txt')} is missing)`,
    };
  if (!existsSync(binary)) return { found: false, reason: `the Electron binary is missing at ${binary}` };
  return { found: true, path: binary };
}
