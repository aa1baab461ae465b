/** Browser mode in one call: core on a data dir, the demo wallet when asked, and the web host in front. */
import { createDeskCore, type DeskCore, type DeskCoreOptions } from '../core';
import { checkDemoDataDir, prepareDemoWallet } from './boot';
import { startWebHost, type WebHost } from './server';

export interface DeskHostOptions {
  core: DeskCoreOptions;
  rendererDir: string;
  /** Demo mode only: the local chain's buyer key, imported and unlocked as the demo wallet. */
  demoKey?: `0x${string}`;
  port?: number;
  log?: (error: unknown) => void;
}

export interface DeskHost {
  core: DeskCore;
  host: WebHost;
  close(): Promise<void>;
}

export async function startDeskHost(options: DeskHostOptions): Promise<DeskHost> {
  if (options.core.demo && options.demoKey)
    checkDemoDataDir(options.core.dataDir, options.demoKey, options.core.vault);
  const core = await createDeskCore(options.core);
  try {
    if (options.core.demo && options.demoKey) await prepareDemoWallet(core, options.demoKey);
    const host = await startWebHost({
      handlers: core.handlers,
      rendererDir: options.rendererDir,
      ...(options.port !== undefined ? { port: options.port } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    return {
      core,
      host,
      close: async () => {
        await host.close();
        await core.close();
      },
    };
  } catch (error) {
    await core.close();
    throw error;
  }
}
