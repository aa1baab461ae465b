/** Builds with electron-vite when out/ is missing or older than any source it is built from. */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['src/renderer', 'src/shared', 'src/host', 'src/core', 'electron', 'electron.vite.config.ts'];
const OUTPUTS = ['out/renderer/index.html', 'out/main/index.js', 'out/preload/index.cjs'];

function newest(file: string): number {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(file).reduce((latest, name) => Math.max(latest, newest(path.join(file, name))), 0);
}

export function buildIsStale(root: string): boolean {
  const built = OUTPUTS.map((o) => path.join(root, o));
  if (!built.every(existsSync)) return true;
  const oldestOutput = Math.min(...built.map((o) => statSync(o).mtimeMs));
  return SOURCES.some((s) => newest(path.join(root, s)) > oldestOutput);
}

export async function buildIfStale(root: string, log: (line: string) => void): Promise<void> {
  if (!buildIsStale(root)) return;
  log('Building the app (out/ is missing or older than the sources)…');
  const bin = path.join(
    root,
    'node_modules',
    '.bin',
    process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite',
  );
  await new Promise<void>((resolve, reject) => {
    const child = spawn(bin, ['build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`electron-vite build exited with ${code}`)),
    );
  });
}
