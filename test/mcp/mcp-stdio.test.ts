/**
 * The server's stdout is the protocol: a raw client writes JSON-RPC lines and reads every line back as one,
 * and the server exits by itself when its stdin closes. Its flags are checked before anything is served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { closedPortUrl } from '../closed-port';
import { tempDir } from '../core/helpers';
import { root, runCli } from '../cli/run-cli';

let data: ReturnType<typeof tempDir>;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  data = tempDir('desk-mcp-stdio-');
  env = {
    INTEL_DESK_SERVICE_URL: await closedPortUrl(),
    INTEL_DESK_DATA_DIR: data.dir,
    INTEL_DESK_PASSPHRASE: undefined,
    INTEL_DESK_PRIVATE_KEY: undefined,
  };
});
afterAll(() => data?.remove());

const message = (id: number, method: string, params: Record<string, unknown> = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

describe('intel-desk mcp on stdio', () => {
  it('writes nothing but JSON-RPC to stdout and exits when stdin closes', async () => {
    const child = spawn(process.execPath, [path.join(root, 'bin/intel-desk.mjs'), 'mcp'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.write(
      message(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      }),
    );
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(message(2, 'tools/list'));
    // Offline: the shelf is unreachable, and the refusal still comes back as protocol.
    child.stdin.write(message(3, 'tools/call', { name: 'list_shelf', arguments: {} }));
    child.stdin.end(message(4, 'tools/call', { name: 'list_reports', arguments: {} }));
    expect(await exited, stderr).toBe(0);

    const lines = stdout.trim().split('\n');
    const answers = lines.map((line) => JSON.parse(line) as { id: number; result?: Record<string, unknown> });
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4]);
    expect(answers.find((a) => a.id === 3)?.result?.['isError']).toBe(true);
    expect(answers.find((a) => a.id === 4)?.result?.['isError']).toBeUndefined();
    expect(stderr).toMatch(/serving on stdio; this session may approve up to \$0\.00/);
  });

  it('refuses a spending limit that is not an amount, before serving', async () => {
    const run = await runCli(['mcp', '--allow-spend', 'lots'], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'intel-desk: --allow-spend: "lots" is not an amount of dollars; write it like 1.50 or 0.0125.\n',
    );
    const finer = await runCli(['mcp', '--allow-spend', '0.0000001'], env);
    expect(finer.code).toBe(2);
    expect(finer.stdout).toBe('');
    expect(finer.stderr).toContain('USDC has 6 decimals');
  });

  it('approve needs a request id, or --list', async () => {
    const run = await runCli(['approve'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/approve --list/);
    const listed = await runCli(['approve', '--list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe('no purchase request is waiting\n');
  });
});
