/**
 * app.assistantSetup (decision 0047): the MCP client configuration for this desk, built from how its host
 * says the CLI starts on this computer and from the desk's own folder, made absolute.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore, type DeskCore } from '../../src/core';
import { closedPortUrl } from '../closed-port';
import { tempDir } from './helpers';

const open: { desk: DeskCore; data: ReturnType<typeof tempDir> }[] = [];
afterEach(async () => {
  for (const { desk, data } of open.splice(0)) {
    await desk.close();
    data.remove();
  }
});

async function desk(options: { relative?: boolean; cliLauncher?: { command: string; args: string[] } }) {
  const data = tempDir('desk-assistant-setup-');
  const dataDir = options.relative ? path.relative(process.cwd(), data.dir) : data.dir;
  const opened = await createDeskCore({
    dataDir,
    serviceUrl: await closedPortUrl(),
    attempts: 1,
    ...(options.cliLauncher ? { cliLauncher: options.cliLauncher } : {}),
  });
  open.push({ desk: opened, data });
  return { core: opened, dir: data.dir };
}

describe('the assistant setup', () => {
  it("runs the host's launcher with mcp on the desk's folder", async () => {
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

  it('is intel-desk on the PATH when the host names no launcher', async () => {
    const { core, dir } = await desk({});
    const setup = await core.handlers['app.assistantSetup']({});
    expect(setup).toMatchObject({
      command: 'intel-desk',
      args: ['mcp', '--data-dir', dir],
      commandOnPath: true,
    });
  });
});
