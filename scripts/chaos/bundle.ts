/**
 * Bundles the desk worker once per run, so each of the many restarts after a kill starts in about the time of
 * Node itself rather than compiling core through tsx again. Packages stay external: the bundle sits under
 * out/ in the project, where node_modules resolves.
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export async function bundleDeskWorker(): Promise<{ file: string; remove(): void }> {
  const file = path.join(root, 'out', 'chaos', `desk-worker-${process.pid}-${Date.now()}.mjs`);
  await build({
    entryPoints: [path.join(root, 'scripts/chaos/desk-worker.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return { file, remove: () => rmSync(file, { force: true }) };
}
