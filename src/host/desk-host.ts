/**
 * Browser mode in one call: core in its worker thread on a data dir, the demo wallet when asked, and the web
 * host in front.
 */
import type { ThreadCoreOptions } from './core-protocol';
import { checkDemoDataDir, prepareDemoWallet, type DemoWalletChoice } from './boot';
import { startCoreThread, type CoreThread } from './core-thread';
import { startWebHost, type WebHost } from './server';

export interface DeskHostOptions {
  core: ThreadCoreOptions;
  rendererDir: string;
  /** Demo mode only: the local chain's buyer key, imported and unlocked as the demo wallet. */
  demoKey?: `0x${string}`;
  /** What to do about a folder holding a wallet not the demo's (npm start's --wallet); unset: refuse. */
  demoWallet?: DemoWalletChoice;
  port?: number;
  log?: (error: unknown) => void;
}

export interface DeskHost {
  core: CoreThread;
  host: WebHost;
  close(): Promise<void>;
}

export async function startDeskHost(options: DeskHostOptions): Promise<DeskHost> {
  if (options.core.demo && options.demoKey)
    checkDemoDataDir(options.core.dataDir, options.demoKey, undefined, options.demoWallet);
  const core = await startCoreThread({
    core: options.core,
    ...(options.log ? { log: options.log } : {}),
  });
  try {
    if (options.core.demo && options.demoKey)
      await prepareDemoWallet(core, options.demoKey, options.core.dataDir, undefined, options.demoWallet);
    const host = await startWebHost({
      dispatchJson: core.dispatchJson,
      events: core.events,
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
