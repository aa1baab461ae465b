/**
 * `dependencies` is what ships: electron-builder copies it into the package and electron-vite leaves it
 * external to the main and worker bundles. So it holds exactly what the main process, core's worker and the
 * CLI import at run time; what vite bundles into the renderer, and what only the demo and the tests use, is a
 * devDependency.
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

/** The programs that run from an installed package; each bundle leaves packages external, as the builds do. */
const RUNTIME_ENTRIES = {
  'main process': 'electron/main.ts',
  'core worker': 'src/host/core-worker.ts',
  CLI: 'src/cli/main.ts',
};

/**
 * Dependencies no runtime entry imports yet, each with the reason it ships anyway. An entry here that an
 * entry does import is stale and fails the test, so the list cannot outlive its reason.
 */
const SHIPPED_WITHOUT_IMPORT: Record<string, string> = {};

/** Provided by the Electron binary itself, never installed into the package. */
const PROVIDED_BY_ELECTRON = new Set(['electron']);

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

async function runtimeImports(): Promise<Map<string, Set<string>>> {
  const imports = new Map<string, Set<string>>();
  for (const [program, entry] of Object.entries(RUNTIME_ENTRIES)) {
    const result = await build({
      entryPoints: [path.join(root, entry)],
      absWorkingDir: root,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      splitting: true,
      outdir: path.join(root, 'out', 'dependency-scan'),
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    for (const input of Object.values(result.metafile.inputs)) {
      for (const imported of input.imports) {
        if (!imported.external || imported.path.startsWith('node:')) continue;
        const name = packageName(imported.path);
        if (PROVIDED_BY_ELECTRON.has(name)) continue;
        const programs = imports.get(name) ?? new Set<string>();
        programs.add(program);
        imports.set(name, programs);
      }
    }
  }
  return imports;
}

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('dependencies and devDependencies', () => {
  it('ship exactly what the main process, the core worker and the CLI import', async () => {
    const imports = await runtimeImports();
    const imported = [...imports.keys()].sort();
    const shipped = Object.keys(manifest.dependencies).sort();

    // A runtime import left in devDependencies would be missing from the package (or bundled by accident).
    expect(imported.filter((name) => !(name in manifest.dependencies))).toEqual([]);
    // A dependency nothing at run time imports only makes the package bigger.
    expect(shipped.filter((name) => !imports.has(name) && !(name in SHIPPED_WITHOUT_IMPORT))).toEqual([]);
    expect(Object.keys(SHIPPED_WITHOUT_IMPORT).filter((name) => imports.has(name))).toEqual([]);
    expect(Object.keys(SHIPPED_WITHOUT_IMPORT).filter((name) => !(name in manifest.dependencies))).toEqual(
      [],
    );
  });

  it('keeps the renderer-only and demo-only packages out of the package', () => {
    const devOnly = ['react', 'react-dom', 'wagmi', 'recharts', 'solc', 'tsx', '@foundry-rs/anvil'];
    expect(devOnly.filter((name) => name in manifest.dependencies)).toEqual([]);
    expect(devOnly.filter((name) => !(name in manifest.devDependencies))).toEqual([]);
  });
});
