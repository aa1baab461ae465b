/**
 * Browser mode in one call: core in its worker thread on a data dir, the demo wallet when asked, and the web
 * host in front.
 */
import type { ThreadCoreOptions } from './core-protocol';
import { CLOCK_OFFSET_ENV, parseClockOffset } from '../core/payments/clock-offset';
import { DeskError } from '../core/base/errors';
import { relayUrlFromEnv, walletConnectRelayUrlSchema } from '../shared/walletconnect-relay';
import { checkDemoDataDir, DEMO_PASSPHRASE, prepareDemoWallet, type DemoWalletChoice } from './boot';
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
  /**
   * Where INTEL_DESK_CLOCK_OFFSET_MS and INTEL_DESK_WALLETCONNECT_RELAY_URL (testing aids) are read, unless
   * core.clockOffsetMs / core.walletConnectRelayUrl are set; default process.env.
   */
  env?: Record<string, string | undefined>;
}

export interface DeskHost {
  core: CoreThread;
  host: WebHost;
  close(): Promise<void>;
}

/** The desk's clock offset: the one given, else the variable's; either is refused out of range. */
function clockOffsetMs(options: DeskHostOptions): number {
  const given = options.core.clockOffsetMs;
  const offset = parseClockOffset(
    given === undefined ? (options.env ?? process.env)[CLOCK_OFFSET_ENV] : String(given),
  );
  if (!offset.ok) throw new DeskError('clock_offset_invalid', offset.message, 'usage');
  return offset.offsetMs;
}

/** The WalletConnect relay: the one given, else the variable's, else WalletConnect's; malformed is refused. */
function relayUrl(options: DeskHostOptions): string {
  const given = options.core.walletConnectRelayUrl;
  if (given !== undefined) {
    const parsed = walletConnectRelayUrlSchema.safeParse(given);
    if (!parsed.success)
      throw new DeskError('relay_url_invalid', parsed.error.issues[0]?.message ?? 'Bad relay URL.', 'usage');
    return parsed.data;
  }
  const fromEnv = relayUrlFromEnv(options.env ?? process.env);
  if (!fromEnv.ok) throw new DeskError('relay_url_invalid', fromEnv.message, 'usage');
  return fromEnv.url;
}

export async function startDeskHost(options: DeskHostOptions): Promise<DeskHost> {
  const offsetMs = clockOffsetMs(options);
  const walletConnectRelayUrl = relayUrl(options);
  if (options.core.demo && options.demoKey)
    checkDemoDataDir(options.core.dataDir, options.demoKey, undefined, options.demoWallet);
  const core = await startCoreThread({
    core: {
      autoLockWallet: !options.core.demo,
      followOtherWriters: true,
      ...options.core,
      ...(options.core.demo && options.demoKey ? { demoWalletPassphrase: DEMO_PASSPHRASE } : {}),
      walletConnectRelayUrl,
      ...(offsetMs ? { clockOffsetMs: offsetMs } : {}),
    },
    ...(options.log ? { log: options.log } : {}),
  });
  try {
    if (options.core.demo && options.demoKey)
      await prepareDemoWallet(core, options.demoKey, options.core.dataDir, undefined, options.demoWallet);
    const host = await startWebHost({
      dispatchJson: core.dispatchJson,
      events: core.events,
      rendererDir: options.rendererDir,
      walletConnectRelayUrl,
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
