#!/usr/bin/env node
// Runs the compiled CLI (built by `npm install`'s prepare step and by `npm run build`); in a checkout whose
// sources changed since, the TypeScript through tsx, which is slower because it compiles on every start.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliEntry } from './cli-entry.mjs';

const entry = cliEntry(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
if (entry.kind === 'source') {
  // tsx is a devDependency: a checkout installed without them (npm install --omit=dev) has no way to run
  // sources, so it is told how to get one rather than shown Node's module-not-found trace.
  let tsx;
  try {
    tsx = await import('tsx/esm/api');
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    process.stderr.write(
      'intel-desk: the compiled CLI (out/cli) is missing or older than its sources, and tsx, which runs the ' +
        'sources, is not installed. Run `npm install` (it installs the development packages and builds the ' +
        'CLI), or `node scripts/build-cli.mjs` where esbuild is installed.\n',
    );
    process.exit(1);
  }
  tsx.register();
}
await import(pathToFileURL(entry.file).href);
