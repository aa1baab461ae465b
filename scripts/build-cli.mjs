// Compiles the CLI to out/cli/main.mjs, so `intel-desk` starts in about the time of Node itself instead of
// compiling TypeScript through tsx on every run. Packages stay external (they are installed beside it).
// Plain JavaScript on purpose: npm runs it as the `prepare` step, before anything can load TypeScript.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await build({
  entryPoints: [path.join(root, 'src/cli/main.ts')],
  outfile: path.join(root, 'out/cli/main.mjs'),
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
