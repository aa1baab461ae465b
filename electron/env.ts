/** The shell's configuration, from the environment `npm start` sets; validated like any outside input. */
import { z } from 'zod';
import { DeskError } from '../src/core/base/errors';
import { encryptedOrLocal } from '../src/shared/transport';
import {
  DEFAULT_WALLETCONNECT_RELAY_URL,
  walletConnectRelayUrlSchema,
} from '../src/shared/walletconnect-relay';

const hexKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/)
  .transform((k) => k as `0x${string}`);

/** An address the shell hands on to core or the updater: https, or http on this computer (decision 0040). */
const encryptedOrLocalUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/ })
    // Said once: a string that is not a URL at all is already refused as one.
    .refine(
      (url) => !URL.canParse(url) || encryptedOrLocal(url),
      `${what} must be https (http only on this computer)`,
    );

const envSchema = z.object({
  INTEL_DESK_SERVICE_URL: encryptedOrLocalUrl('the service').optional(),
  INTEL_DESK_RPC_URL: encryptedOrLocalUrl('a chain RPC').optional(),
  INTEL_DESK_DEMO: z.enum(['1', '0', 'true', 'false']).optional(),
  INTEL_DESK_DATA_DIR: z.string().min(1).optional(),
  INTEL_DESK_DEMO_KEY: hexKey.optional(),
  /** The demo service's public library secret, offered in the demo's Settings (core uses it, never shows it). */
  INTEL_DESK_DEMO_LIBRARY_SECRET: z.string().min(1).max(4096).optional(),
  INTEL_DESK_NATIVE_BINDING: z.string().min(1).optional(),
  INTEL_DESK_DEMO_ASSET: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .transform((a) => a as `0x${string}`)
    .optional(),
  INTEL_DESK_DEMO_WALLET: z.enum(['imported', 'demo']).optional(),
  /**
   * A generic update feed (the folder holding latest.yml), instead of the one the package names. https only
   * (http on loopback, for a local feed): whoever can rewrite latest.yml in transit chooses the sha512 too.
   */
  INTEL_DESK_UPDATE_URL: encryptedOrLocalUrl('an update feed').optional(),
  /** For tests only: a WalletConnect relay on this computer to dial instead of WalletConnect's own (decision 0045). */
  INTEL_DESK_WALLETCONNECT_RELAY_URL: walletConnectRelayUrlSchema.optional(),
});

export interface ShellEnv {
  serviceUrl: string | undefined;
  rpcUrl: string | undefined;
  demo: boolean;
  dataDir: string | undefined;
  demoKey: `0x${string}` | undefined;
  demoLibrarySecret: string | undefined;
  /** better-sqlite3 built for Electron's ABI (scripts/native-abi.ts); unset in a package, which ships that build. */
  nativeBinding: string | undefined;
  /** The local demo token, the only one signed for on the demo chain. */
  demoAsset: `0x${string}` | undefined;
  /** npm start's --wallet: what the demo does about a folder holding a wallet not its own. */
  demoWallet: 'imported' | 'demo' | undefined;
  updateUrl: string | undefined;
  /** The WalletConnect relay, as an origin: the only address besides the app's the window may connect to. */
  walletConnectRelayUrl: string;
}

export function readShellEnv(env: NodeJS.ProcessEnv): ShellEnv {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    // Named by variable, so the dialog that shows this tells a person what to fix.
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new DeskError('invalid_settings', problems.join('; '), 'usage');
  }
  const parsed = result.data;
  return {
    serviceUrl: parsed.INTEL_DESK_SERVICE_URL,
    rpcUrl: parsed.INTEL_DESK_RPC_URL,
    demo: parsed.INTEL_DESK_DEMO === '1' || parsed.INTEL_DESK_DEMO === 'true',
    dataDir: parsed.INTEL_DESK_DATA_DIR,
    demoKey: parsed.INTEL_DESK_DEMO_KEY,
    demoLibrarySecret: parsed.INTEL_DESK_DEMO_LIBRARY_SECRET,
    nativeBinding: parsed.INTEL_DESK_NATIVE_BINDING,
    demoAsset: parsed.INTEL_DESK_DEMO_ASSET,
    demoWallet: parsed.INTEL_DESK_DEMO_WALLET,
    updateUrl: parsed.INTEL_DESK_UPDATE_URL,
    walletConnectRelayUrl: parsed.INTEL_DESK_WALLETCONNECT_RELAY_URL ?? DEFAULT_WALLETCONNECT_RELAY_URL,
  };
}
