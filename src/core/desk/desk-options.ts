/** What a desk is started with: its data folder, the run's service and chain, and the hosts' choices. */
import type { DeskEvent } from '../../shared/events';
import type { BackupScheduleOptions } from '../backup/scheduler';
import type { IntegrityWatchOptions } from '../db/integrity';
import type { KdfCost } from '../wallet/passphrase-seal';
import type { SecretVault } from '../wallet/sealing';
import type { DeskFetch } from '../net/network';

export interface DeskCoreOptions {
  dataDir: string;
  serviceUrl?: string;
  demo?: boolean;
  /** In demo mode, the test USDC the local service deployed: the only token signed for on the demo chain. */
  demoAsset?: `0x${string}`;
  /** This run's chain RPC (the CLI's --rpc, INTEL_DESK_RPC_URL, the demo's chain): ahead of Settings and defaults. */
  rpcUrl?: string;
  vault?: SecretVault;
  /** Demo mode only: the demo service's library secret, which core can use when asked without showing it. */
  demoLibrarySecret?: string;
  /**
   * Demo mode only: the passphrase the demo sealed its own wallet with (src/host/boot.ts). When a connected
   * wallet goes away, the demo's keystore is unlocked with it again: the demo never told anyone a passphrase.
   */
  demoWalletPassphrase?: string;
  /** Tests only: the service's requests through this fetch instead of the network's (net/network.ts). */
  fetch?: DeskFetch;
  /**
   * The environment HTTPS_PROXY, HTTP_PROXY, NO_PROXY (and their lower-case forms) and NODE_EXTRA_CA_CERTS are
   * read from; default process.env.
   */
  environment?: Readonly<Record<string, string | undefined>>;
  /**
   * Every event core emits (src/shared/events.ts): what the hosts forward to the window, and how tests and the
   * chaos run follow a purchase's steps. Listening from here hears the steps of the start's reconciliation too.
   */
  onEvent?: (event: DeskEvent) => void;
  /** Milliseconds since the epoch; injectable so tests can move past an authorization's expiry. */
  now?: () => number;
  /** Free-route attempts (default 3); tests of offline behaviour use 1. */
  attempts?: number;
  /** Deadline of one service request (default 20 s). */
  timeoutMs?: number;
  /** Deadline of one chain RPC call during reconciliation (default 5 s), so a dead chain never blocks start. */
  chainTimeoutMs?: number;
  /** Wallet key-derivation cost; only test suites pass 'fast-insecure-for-tests'. */
  walletKdfCost?: KdfCost;
  /** A better-sqlite3 addon built for this runtime's ABI (Electron's), instead of the one built for Node. */
  nativeBinding?: string;
  /** When the library is copied into backups/ (after stored reports, daily); tests shorten the delays. */
  backups?: BackupScheduleOptions;
  /**
   * Lock an unlocked keystore after the idle time set in Settings: the app's hosts ask for it outside the demo
   * (whose wallet they unlock themselves); the CLI does not, as a command or the MCP server unlocks from the
   * environment, where nobody could type the passphrase again.
   */
  autoLockWallet?: boolean;
  /**
   * Tell this desk's windows of commits by other processes on the same data folder (a CLI purchase, an MCP
   * request): for the hosts of a window, not for a CLI run that answers and exits.
   */
  followOtherWriters?: boolean;
  /** How often the idle keystore is looked at (default 30 s); reading the wallet looks too. */
  autoLockCheckMs?: number;
  /** The WalletConnect relay, already validated (src/shared/walletconnect-relay.ts); default WalletConnect's. */
  walletConnectRelayUrl?: string;
  /**
   * How this computer starts the intel-desk CLI, for the MCP configuration Settings shows: a checkout's host
   * gives Node and bin/intel-desk.mjs; unset, `intel-desk` on the PATH.
   */
  cliLauncher?: { command: string; args: string[] };
  /** When the background integrity check runs (tests start it at once). */
  integrity?: Omit<IntegrityWatchOptions, 'nativeBinding'>;
}
