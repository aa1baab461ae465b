/**
 * Stand-ins for what this machine cannot download: an electron package whose `install-electron` installer
 * really runs as a child process (and succeeds, fails or hangs as told), and build tools (prebuild-install,
 * node-gyp) that record their arguments and produce an addon or fail as the real ones do offline.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { findElectronPackage, type ElectronPackage } from '../../scripts/electron-binary';

export type InstallerBehaviour = 'succeeds' | 'fails' | 'hangs' | 'forgets-binary';

const INSTALLERS: Record<InstallerBehaviour, string> = {
  succeeds: `
    const fs = require('fs'); const path = require('path');
    fs.writeFileSync(path.join(__dirname, 'installer-ran'), String(process.pid));
    console.log('Downloading electron-v' + require('./package.json').version + '-linux-x64.zip: 100%');
    fs.mkdirSync(path.join(__dirname, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, 'dist', 'electron'), '#!/bin/sh\\nexit 0\\n', { mode: 0o755 });
    fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron');`,
  fails: `
    require('fs').writeFileSync(require('path').join(__dirname, 'installer-ran'), String(process.pid));
    console.error('HTTPError: Response code 404 (Not Found) for https://github.com/electron/electron/releases/download/v45.4.1/electron-v45.4.1-linux-x64.zip');
    console.error('    at Request.<anonymous> (node_modules/got/source/as-stream.js:1:1)');
    process.exit(1);`,
  hangs: `
    require('fs').writeFileSync(require('path').join(__dirname, 'installer-ran'), String(process.pid));
    console.log('Downloading electron-v45.4.1-linux-x64.zip');
    setInterval(() => undefined, 1000);`,
  'forgets-binary': `
    require('fs').writeFileSync(require('path').join(__dirname, 'installer-ran'), String(process.pid));`,
};

/** An electron package in `dir` (version 45.4.1 unless told) with the installer behaving as told. */
export function standInElectron(
  dir: string,
  behaviour: InstallerBehaviour,
  version = '45.4.1',
): ElectronPackage {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'electron',
      version,
      bin: { electron: 'cli.js', 'install-electron': 'install.js' },
    }),
  );
  writeFileSync(path.join(dir, 'install.js'), `#!/usr/bin/env node\n${INSTALLERS[behaviour]}\n`);
  chmodSync(path.join(dir, 'install.js'), 0o755);
  const found = findElectronPackage(dir, dir);
  if (!found) throw new Error('the stand-in electron package is not readable');
  return found;
}

/** The pid the installer recorded, when it ran. */
export function installerPid(dir: string): number | null {
  const file = path.join(dir, 'installer-ran');
  return existsSync(file) ? Number(readFileSync(file, 'utf8')) : null;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A better-sqlite3 package with just what the preparation reads and copies. */
export function standInSqlite(dir: string, version = '12.11.1'): string {
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  mkdirSync(path.join(dir, 'build', 'Release'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'better-sqlite3', version }));
  writeFileSync(path.join(dir, 'binding.gyp'), '{}');
  writeFileSync(path.join(dir, 'src', 'better_sqlite3.cpp'), '// source');
  // Node's own build, which preparation must never touch.
  writeFileSync(path.join(dir, 'build', 'Release', 'better_sqlite3.node'), 'node-abi-115');
  return dir;
}

export type ToolBehaviour = 'builds' | 'fails';

/**
 * A build tool that appends its argv to `calls.log` in its folder and then writes build/Release in its
 * working folder (as prebuild-install and node-gyp do) or fails with the message the real one gives offline.
 */
export function standInTool(dir: string, name: string, behaviour: ToolBehaviour, failure: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.cjs`);
  const log = path.join(dir, 'calls.log');
  writeFileSync(
    file,
    `const fs = require('fs'); const path = require('path');
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ tool: ${JSON.stringify(name)}, args: process.argv.slice(2), cwd: process.cwd(), sources: fs.existsSync('binding.gyp') }) + '\\n');
if (${JSON.stringify(behaviour)} === 'fails') { console.error(${JSON.stringify(failure)}); process.exit(1); }
fs.mkdirSync(path.join(process.cwd(), 'build', 'Release'), { recursive: true });
fs.writeFileSync(path.join(process.cwd(), 'build', 'Release', 'better_sqlite3.node'), ${JSON.stringify(`electron-abi-150 from ${name}`)});
`,
  );
  return file;
}

export interface ToolCall {
  tool: string;
  args: string[];
  cwd: string;
  /** Whether the package's build sources were in the working folder. */
  sources: boolean;
}

export function toolCalls(dir: string): ToolCall[] {
  const log = path.join(dir, 'calls.log');
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ToolCall);
}

/** Collects what a tool printed, as the person would have seen it. */
export function capture(): { stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
