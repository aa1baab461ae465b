/**
 * The CLI as npm publishes it (decision 0051): `npm pack` of this package.json, its `prepare` step compiling the
 * CLI, holds the bin and out/cli and nothing of the sources, the app or the tests; unpacked beside its
 * dependencies (the checkout's node_modules standing in for what `npm install -g` fetches), its bin runs the
 * compiled CLI, with no TypeScript and no repository. Packed from a staging folder so the checkout's own
 * out/cli, which other tests run, is never rebuilt under them.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { closedPortUrl } from '../closed-port';
import { tempDir } from '../core/helpers';
import { root as repo } from './run-cli';

const { version } = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string };

interface Packed {
  filename: string;
  files: Array<{ path: string }>;
}

describe('the published CLI package', () => {
  const dir = tempDir('desk-cli-package-');
  let packed: Packed;
  let installed: string;

  beforeAll(() => {
    const stage = path.join(dir.dir, 'stage');
    mkdirSync(path.join(stage, 'scripts'), { recursive: true });
    for (const file of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'])
      copyFileSync(path.join(repo, file), path.join(stage, file));
    copyFileSync(path.join(repo, 'scripts/build-cli.mjs'), path.join(stage, 'scripts/build-cli.mjs'));
    cpSync(path.join(repo, 'bin'), path.join(stage, 'bin'), { recursive: true });
    // Everything else a pack sees (sources for the build, the tests, the app) is there, as in the checkout.
    for (const folder of ['src', 'test', 'electron', 'node_modules'])
      symlinkSync(path.join(repo, folder), path.join(stage, folder), 'dir');
    const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', dir.dir], {
      cwd: stage,
      encoding: 'utf8',
      env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    });
    expect(pack.status, pack.stderr).toBe(0);
    // npm prints the prepare step's output before the JSON.
    packed = (JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[\n'))) as Packed[])[0]!;
    const unpacked = path.join(dir.dir, 'installed');
    mkdirSync(unpacked);
    const tar = spawnSync('tar', ['-xzf', path.join(dir.dir, packed.filename), '-C', unpacked], {
      encoding: 'utf8',
    });
    expect(tar.status, tar.stderr).toBe(0);
    installed = path.join(unpacked, 'package');
    symlinkSync(path.join(repo, 'node_modules'), path.join(installed, 'node_modules'), 'dir');
  }, 120_000);
  afterAll(() => dir.remove());

  it('holds the bin and the compiled CLI, and none of the sources, the app, the tests or source maps', () => {
    const files = packed.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'bin/intel-desk.mjs',
        'bin/cli-entry.mjs',
        'out/cli/main.mjs',
      ]),
    );
    expect(
      files.filter((file) => !/^(bin|out\/cli)\/|^[A-Z]+\.md$|^LICENSE$|^package\.json$/.test(file)),
    ).toEqual([]);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files.some((file) => file.startsWith('out/cli/chunks/'))).toBe(true);
  });

  it('is publishable, with the bin npm links onto the PATH', () => {
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
      private?: boolean;
      bin: Record<string, string>;
    };
    expect(manifest.private).toBeUndefined();
    expect(manifest.bin).toEqual({ 'intel-desk': 'bin/intel-desk.mjs' });
  });

  it('runs the compiled CLI from the unpacked package: --version, and a command with its arguments', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [path.join(installed, 'bin/intel-desk.mjs'), ...args], {
        cwd: dir.dir,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir.dir,
          INTEL_DESK_DATA_DIR: path.join(dir.dir, 'a folder'),
        },
      });
    const versionRun = run(['--version']);
    expect(versionRun.stderr).toBe('');
    expect(versionRun).toMatchObject({ status: 0, stdout: `intel-desk ${version}\n` });
    const help = run(['help', 'library']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('library');
    // No TypeScript was run: there is none in the package to fall back to.
    expect(help.stderr).not.toContain('tsx');
  });

  it('serves MCP from the unpacked package, on the folder the assistant entry names', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        path.join(installed, 'bin/intel-desk.mjs'),
        'mcp',
        '--data-dir',
        path.join(dir.dir, 'a library'),
      ],
      env: { PATH: process.env.PATH ?? '', HOME: dir.dir, INTEL_DESK_SERVICE_URL: await closedPortUrl() },
      cwd: dir.dir,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'intel-desk-package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('search_library');
    } finally {
      await client.close();
    }
  });
});
