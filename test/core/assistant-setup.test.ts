/**
 * app.assistantSetup (decision 0047): the MCP client configuration for this desk, built from how its host
 * says the CLI starts on this computer and from the desk's own folder, made absolute.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore, type DeskCore, type DeskCoreOptions } from '../../src/core';
import { closedPortUrl } from '../closed-port';
import { tempDir } from './helpers';

const open: { desk: DeskCore; data: ReturnType<typeof tempDir> }[] = [];
afterEach(async () => {
  for (const { desk, data } of open.splice(0)) {
    await desk.close();
    data.remove();
  }
});

async function desk(
  options: Omit<Partial<DeskCoreOptions>, 'dataDir'> & { relative?: boolean } = {},
): Promise<{ core: DeskCore; dir: string }> {
  const data = tempDir('desk-assistant-setup-');
  const { relative, ...rest } = options;
  const dataDir = relative ? path.relative(process.cwd(), data.dir) : data.dir;
  const opened = await createDeskCore({ dataDir, attempts: 1, ...rest });
  open.push({ desk: opened, data });
  return { core: opened, dir: data.dir };
}

describe('the assistant setup', () => {
  it("runs the host's launcher with mcp on the desk's folder, and no more when Settings holds the rest", async () => {
    const launcher = { command: '/usr/local/bin/node', args: ['/opt/intel-desk/bin/intel-desk.mjs'] };
    const { core, dir } = await desk({ cliLauncher: launcher, relative: true });
    const setup = await core.handlers['app.assistantSetup']({});
    const args = ['/opt/intel-desk/bin/intel-desk.mjs', 'mcp', '--data-dir', dir];
    expect(setup).toEqual({
      dataDir: dir,
      command: '/usr/local/bin/node',
      args,
      commandOnPath: false,
      config: JSON.stringify(
        { mcpServers: { 'intel-desk': { command: '/usr/local/bin/node', args } } },
        null,
        2,
      ),
    });
  });

  it("is intel-desk on the PATH when the host names no launcher, with the run's service, chain and token", async () => {
    const serviceUrl = await closedPortUrl();
    const rpcUrl = await closedPortUrl();
    const demoAsset = `0x${'ab'.repeat(20)}` as const;
    const { core, dir } = await desk({
      serviceUrl,
      rpcUrl,
      demo: true,
      demoAsset,
      demoLibrarySecret: 'kept-in-core',
    });
    const setup = await core.handlers['app.assistantSetup']({});
    const env = {
      INTEL_DESK_SERVICE_URL: serviceUrl,
      INTEL_DESK_RPC_URL: rpcUrl,
      INTEL_DESK_DEMO: '1',
      INTEL_DESK_DEMO_ASSET: demoAsset,
    };
    const server = { command: 'intel-desk', args: ['mcp', '--data-dir', dir], env };
    expect(setup).toMatchObject({ ...server, commandOnPath: true });
    expect(JSON.parse(setup.config)).toEqual({ mcpServers: { 'intel-desk': server } });
    expect(setup.config).not.toContain('kept-in-core');
  });
});
