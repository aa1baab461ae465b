#!/usr/bin/env node
// Runs the compiled CLI (built by `npm install`'s prepare step and by `npm run build`); in a checkout whose
// sources changed since, the TypeScript through tsx, which is slower because it compiles on every start.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliEntry } from './cli-entry.mjs';

const entry = cliEntry(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
if (entry.kind === 'source') {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(pathToFileURL(entry.file).href);
