// Which file the `intel-desk` bin runs: the compiled CLI while it is at least as new as every source it was
// built from, else the TypeScript itself (through tsx), so a developer never runs stale code.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// src/mcp and src/host are bundled too: `intel-desk mcp` serves from them.
const SOURCES = ['src/cli', 'src/mcp', 'src/host', 'src/core', 'src/shared', 'package.json'];

function newestSource(file) {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(file).reduce((newest, name) => Math.max(newest, newestSource(path.join(file, name))), 0);
}

/** @returns {{ kind: 'compiled' | 'source', file: string }} */
export function cliEntry(root) {
  const compiled = path.join(root, 'out', 'cli', 'main.mjs');
  if (existsSync(compiled)) {
    const builtAt = statSync(compiled).mtimeMs;
    if (SOURCES.every((source) => newestSource(path.join(root, source)) <= builtAt)) {
      return { kind: 'compiled', file: compiled };
    }
  }
  return { kind: 'source', file: path.join(root, 'src', 'cli', 'main.ts') };
}
