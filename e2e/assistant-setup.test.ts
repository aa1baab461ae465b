/**
 * Settings → Use with an AI assistant (decision 0047), in real Chromium: the MCP client configuration for this
 * desk (`intel-desk mcp --data-dir <its folder>`), copyable, with nothing secret in it, and a configuration
 * that starts a server on this very library.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../test/cli/run-cli';
import { openDeskFixture, type DeskFixture } from './desk-fixture';

let fx: DeskFixture;

beforeAll(async () => {
  fx = await openDeskFixture({
    stack: { seed: { handles: 1, minReportsPerHandle: 1, maxReportsPerHandle: 1 } },
    demoKey: (stack) => stack.buyerKeys[0]!,
    demoLibrarySecret: true,
  });
  await fx.page.getByRole('link', { name: 'Settings', exact: true }).click();
});

afterAll(() => fx?.close());

interface McpConfig {
  mcpServers: { 'intel-desk': { command: string; args: string[]; env?: Record<string, string> } };
}

describe('Use with an AI assistant', () => {
  it("shows the configuration for this desk's folder, with no secret in it", async () => {
    const card = fx.page.getByRole('group', { name: 'Use with an AI assistant' });
    const text = (await card.getByTestId('assistant-config').textContent()) ?? '';
    const config = JSON.parse(text) as McpConfig;
    // The fixture's host names no launcher: the CLI is `intel-desk` on the PATH, and the card says so. Its
    // service, chain and token were given for the run, so the server is given them too.
    expect(config).toEqual({
      mcpServers: {
        'intel-desk': {
          command: 'intel-desk',
          args: ['mcp', '--data-dir', fx.dataDir],
          env: {
            INTEL_DESK_SERVICE_URL: fx.stack.baseUrl,
            INTEL_DESK_RPC_URL: fx.stack.rpcUrl,
            INTEL_DESK_DEMO: '1',
            INTEL_DESK_DEMO_ASSET: fx.stack.asset,
          },
        },
      },
    });
    expect(await card.getByTestId('assistant-library').textContent()).toBe(
      `It reads the library in ${fx.dataDir}. The command intel-desk must be on this computer’s PATH (README: Command line).`,
    );
    expect(text).not.toContain(fx.stack.librarySecret);
    expect(text).not.toMatch(/passphrase|allow-spend|key-file|PRIVATE_KEY/i);
    const answer = await fx.desk.core.handlers['app.assistantSetup']({});
    expect(answer.config).toBe(text);
  });

  it('copies it', async () => {
    const card = fx.page.getByRole('group', { name: 'Use with an AI assistant' });
    await card.getByRole('button', { name: 'Copy the assistant configuration' }).click();
    await expect
      .poll(() => card.getByRole('button', { name: /Copy the assistant configuration/ }).textContent())
      .toBe('Copied');
  });

  it('starts an MCP server on this library when run as shown', async () => {
    const { args, env } = await fx.desk.core.handlers['app.assistantSetup']({});
    // `intel-desk` as the checkout's bin: what `npm link` or an installed launcher puts on the PATH.
    const child = spawn(process.execPath, [path.join(root, 'bin/intel-desk.mjs'), ...args], {
      cwd: root,
      env: { ...process.env, INTEL_DESK_DATA_DIR: undefined, INTEL_DESK_PRIVATE_KEY: undefined, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const line = (message: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
    child.stdin.write(
      line({
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'e2e', version: '1' },
        },
      }),
    );
    child.stdin.write(line({ method: 'notifications/initialized' }));
    child.stdin.end(line({ id: 2, method: 'tools/list' }));
    expect(await exited, stderr).toBe(0);
    const answers = stdout
      .trim()
      .split('\n')
      .map((answer) => JSON.parse(answer) as { id: number; result?: { tools?: unknown[] } });
    expect(answers.find((answer) => answer.id === 2)?.result?.tools?.length).toBeGreaterThan(0);
    // The folder was named, so the server says nothing of a folder it chose.
    expect(stderr).not.toContain('intel-desk: library ');
  });
});
