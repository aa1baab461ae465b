/**
 * Where the Electron binary is, without triggering the download `require('electron')` attempts when it is
 * missing (there is no internet for it here).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type ElectronBinary = { found: true; path: string } | { found: false; reason: string };

export function findElectronBinary(root: string): ElectronBinary {
  let packageDir: string;
  try {
    packageDir = path.dirname(
      createRequire(path.join(root, 'package.json')).resolve('electron/package.json'),
    );
  } catch {
    return { found: false, reason: 'the electron package is not installed' };
  }
  const pathFile = path.join(packageDir, 'path.txt');
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const binary = override
    ? path.join(override, relative ?? 'electron')
    : relative
      ? path.join(packageDir, 'dist', relative)
      : null;
  if (!binary)
    return {
      found: false,
      reason: 'the Electron binary was never downloaded (node_modules/electron/path.txt is missing)',
    };
  if (!existsSync(binary)) return { found: false, reason: `the Electron binary is missing at ${binary}` };
  return { found: true, path: binary };
}
