/**
 * app.info: what the desk is and where it stands, for the title bar and the start-up warnings;
 * app.assistantSetup: how an MCP client starts `intel-desk mcp` on this library (Settings).
 */
import path from 'node:path';
import packageJson from '../../../package.json';
import type { AssistantSetup, RpcHandlers } from '../../shared/rpc';
import type { IntegrityWatch } from '../db/integrity';
import type { OpenedDb } from '../db/open';
import type { DeskService } from '../desk/service';
import type { DeskCoreOptions } from '../desk/desk-options';

export interface AppHandlersDeps {
  readonly integrity: Pick<IntegrityWatch, 'damage'>;
  readonly service: Pick<DeskService, 'connection' | 'serviceUrl'>;
  readonly demo: boolean;
  /** A damaged desk.db replaced at start by a backup (db/open.ts). */
  readonly recovered: OpenedDb['movedAside'];
  readonly options: Pick<
    DeskCoreOptions,
    'dataDir' | 'cliLauncher' | 'serviceUrl' | 'rpcUrl' | 'demo' | 'demoAsset'
  >;
}

/** The one version number: package.json's, so a release bump cannot leave the About box behind. */
export const APP_VERSION: string = packageJson.version;

/**
 * What this run was given rather than what Settings saved (the demo's service, chain and token): the server
 * needs the same to price and list what the window does. None of it is secret.
 */
function runEnvironment(ctx: AppHandlersDeps): Record<string, string> {
  const { serviceUrl, rpcUrl, demo, demoAsset } = ctx.options;
  return {
    ...(serviceUrl ? { INTEL_DESK_SERVICE_URL: serviceUrl } : {}),
    ...(rpcUrl ? { INTEL_DESK_RPC_URL: rpcUrl } : {}),
    ...(demo ? { INTEL_DESK_DEMO: '1' } : {}),
    ...(demo && demoAsset ? { INTEL_DESK_DEMO_ASSET: demoAsset } : {}),
  };
}

/**
 * The MCP server on this desk's own folder, named explicitly so the assistant reads this library whatever its
 * client's environment; the spending limit stays 0 and no key, passphrase or library secret is in it
 * (decision 0027).
 */
function assistantSetup(ctx: AppHandlersDeps): AssistantSetup {
  const dataDir = path.resolve(ctx.options.dataDir);
  const launcher = ctx.options.cliLauncher ?? { command: 'intel-desk', args: [] };
  const args = [...launcher.args, 'mcp', '--data-dir', dataDir];
  const env = runEnvironment(ctx);
  const server = { command: launcher.command, args, ...(Object.keys(env).length > 0 ? { env } : {}) };
  return {
    dataDir,
    ...server,
    config: JSON.stringify({ mcpServers: { 'intel-desk': server } }, null, 2),
    commandOnPath: ctx.options.cliLauncher === undefined,
  };
}

export const appHandlers = (ctx: AppHandlersDeps): Pick<RpcHandlers, 'app.info' | 'app.assistantSetup'> => ({
  'app.info': async () => {
    const damage = ctx.integrity.damage();
    // The window asks every few seconds while offline: each ask may probe, and the answer comes as an event.
    if (!ctx.service.connection.online) ctx.service.connection.checkAgain();
    return {
      version: APP_VERSION,
      serviceUrl: ctx.service.serviceUrl(),
      demo: ctx.demo,
      online: ctx.service.connection.online,
      ...(ctx.recovered ? { databaseRecovered: ctx.recovered } : {}),
      ...(damage ? { libraryDamaged: damage } : {}),
    };
  },
  'app.assistantSetup': async () => assistantSetup(ctx),
});
