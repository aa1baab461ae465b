/**
 * app.info: what the desk is and where it stands, for the title bar and the start-up warnings;
 * app.assistantSetup: how an MCP client starts `intel-desk mcp` on this library (Settings).
 */
import path from 'node:path';
import packageJson from '../../../package.json';
import type { AssistantSetup, RpcHandlers } from '../../shared/rpc';
import type { DeskContext } from '../context';

/** The one version number: package.json's, so a release bump cannot leave the About box behind. */
export const APP_VERSION: string = packageJson.version;

/**
 * The MCP server on this desk's own folder, named explicitly so the assistant reads this library whatever its
 * client's environment; the spending limit stays 0 and no key or passphrase is in it (decision 0027).
 */
function assistantSetup(ctx: DeskContext): AssistantSetup {
  const dataDir = path.resolve(ctx.options.dataDir);
  const launcher = ctx.options.cliLauncher ?? { command: 'intel-desk', args: [] };
  const args = [...launcher.args, 'mcp', '--data-dir', dataDir];
  const server = { command: launcher.command, args };
  return {
    dataDir,
    ...server,
    config: JSON.stringify({ mcpServers: { 'intel-desk': server } }, null, 2),
    commandOnPath: ctx.options.cliLauncher === undefined,
  };
}

export const appHandlers = (ctx: DeskContext): Pick<RpcHandlers, 'app.info' | 'app.assistantSetup'> => ({
  'app.info': async () => {
    const damage = ctx.integrity.damage();
    // The window asks every few seconds while offline: each ask may probe, and the answer comes as an event.
    if (!ctx.connection.online) ctx.connection.checkAgain();
    return {
      version: APP_VERSION,
      serviceUrl: ctx.serviceUrl(),
      demo: ctx.demo,
      online: ctx.connection.online,
      ...(ctx.recovered ? { databaseRecovered: ctx.recovered } : {}),
      ...(damage ? { libraryDamaged: damage } : {}),
    };
  },
  'app.assistantSetup': async () => assistantSetup(ctx),
});
