/**
 * One library for the app, the CLI and the assistant (decision 0047): with no folder named, the CLI and
 * `intel-desk mcp` open the installed app's library when this computer has one, else ~/.intel-desk, and say
 * which on stderr (never in --json's output). Real runs with HOME set to a temporary folder.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appLibraryFolder } from '../../src/core/base/app-data-folder';
import { closedPortUrl } from '../closed-port';
import { tempDir } from '../core/helpers';
import { root, runCli } from './run-cli';

let home: ReturnType<typeof tempDir>;
let bare: ReturnType<typeof tempDir>;
let appLibrary: string;
let service: string;

/** A run on this HOME with nothing naming a folder: no --data-dir, no INTEL_DESK_DATA_DIR. */
const on = (homeDir: string) => ({
  HOME: homeDir,
  XDG_CONFIG_HOME: undefined,
  INTEL_DESK_DATA_DIR: undefined,
  INTEL_DESK_SERVICE_URL: service,
  INTEL_DESK_PASSPHRASE: undefined,
  INTEL_DESK_PRIVATE_KEY: undefined,
});

beforeAll(async () => {
  service = await closedPortUrl();
  home = tempDir('desk-cli-app-home-');
  bare = tempDir('desk-cli-bare-home-');
  appLibrary = appLibraryFolder({ platform: process.platform, env: {}, home: home.dir });
  // The app's library, as the app leaves it: a desk with its own cap, set there by name.
  const made = await runCli(['caps', '--per-purchase', '7.25', '--data-dir', appLibrary], on(home.dir));
  expect(made.code, made.stderr).toBe(0);
});
afterAll(() => {
  home?.remove();
  bare?.remove();
});

describe("the CLI's library when none is named", () => {
  it("is the installed app's, said on stderr; --json's output stays JSON alone", async () => {
    const json = await runCli(['caps', '--json'], on(home.dir));
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ perPurchaseCapUnits: '7250000' });
    expect(json.stderr).toBe('');
    const human = await runCli(['caps'], on(home.dir));
    expect(human.stdout).toMatch(/^per purchase: \$7\.25$/m);
    expect(human.stderr).toBe(
      `intel-desk: library ${appLibrary} (the installed app's library; --data-dir DIR for another)\n`,
    );
    expect(existsSync(path.join(home.dir, '.intel-desk'))).toBe(false);
  });

  it('is ~/.intel-desk on a computer without the app', async () => {
    const run = await runCli(['caps'], on(bare.dir));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('$7.25');
    const own = path.join(bare.dir, '.intel-desk');
    expect(run.stderr).toBe(
      `intel-desk: library ${own} (no app library on this computer; --data-dir DIR for another)\n`,
    );
    expect(existsSync(path.join(own, 'desk.db'))).toBe(true);
  });

  it('is the one named by --data-dir or INTEL_DESK_DATA_DIR, without a word', async () => {
    const other = path.join(bare.dir, 'other');
    const flag = await runCli(['caps', '--data-dir', other], on(home.dir));
    const variable = await runCli(['caps'], { ...on(home.dir), INTEL_DESK_DATA_DIR: other });
    for (const run of [flag, variable]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toContain('$7.25');
      expect(run.stderr).toBe('');
    }
  });
});

describe("intel-desk mcp's library when none is named", () => {
  it("is the installed app's", async () => {
    const child = spawn(process.execPath, [path.join(root, 'bin/intel-desk.mjs'), 'mcp'], {
      cwd: root,
      env: Object.fromEntries(
        Object.entries({ ...process.env, ...on(home.dir) }).filter(([, value]) => value !== undefined),
      ),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const line = (message: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
    child.stdin.write(
      line({
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    );
    child.stdin.write(line({ method: 'notifications/initialized' }));
    child.stdin.end(line({ id: 2, method: 'tools/list' }));
    expect(await exited, stderr).toBe(0);
    expect(stderr).toContain(`intel-desk: library ${appLibrary} (the installed app's library;`);
    // Its log of requests is in the app's library, and no other library was made.
    expect(existsSync(path.join(appLibrary, 'mcp.log'))).toBe(true);
    expect(existsSync(path.join(home.dir, '.intel-desk'))).toBe(false);
  });
});
