// Compiles the CLI to out/cli/main.mjs, so `intel-desk` starts in about the time of Node itself instead of
// compiling TypeScript through tsx on every run. Packages stay external (they are installed beside it).
// Plain JavaScript on purpose: npm runs it as the `prepare` step, before anything can load TypeScript.
// Split at the CLI's dynamic imports: `--help` loads only out/cli/main.mjs, each command its own chunks.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const outdir = path.join(root, 'out/cli');
// Chunk names carry a hash: old ones would pile up build after build.
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { main: path.join(root, 'src/cli/main.ts') },
  outdir,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Bundled ESM has no require/__dirname of its own; dependencies that are CommonJS still load through import.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
