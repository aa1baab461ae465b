/** The wallet that pays: a keystore in core, a key for one run, or a wallet in the window. */
import { z } from 'zod';
import { method } from './method';

/** Where the chain RPC in use was chosen: this run (--rpc, the demo), Settings, or the network's public default. */
export type ChainRpcSource = 'run' | 'settings' | 'default';

export interface WalletView {
  kind: 'keystore' | 'external' | null;
  address: string | null;
  unlocked: boolean;
  /** The balance in token base units (6 decimals for USDC), exact: compare this, never the text. */
  balanceUnits: string | null;
  /** The same for people, every significant decimal ("0.0125"). */
  balanceUsdc: string | null;
  network: string | null;
  /** The chain RPC asked about that network (balance, reconciliation, receipts, signatures), when one is known. */
  chainRpc: { url: string; source: ChainRpcSource } | null;
}

export const walletMethods = {
  /**
   * The balance is of `token` (one a quote asked for) or, without it, of the token the service now selected
   * asked for in its last quote; null until a quote named one.
   */
  'wallet.status': method<WalletView>()({
    input: z.object({
      token: z
        .object({ network: z.string().min(1), asset: z.string().regex(/^0x[0-9a-fA-F]{40}$/) })
        .optional(),
    }),
    reads: ['wallet'],
    changes: [],
  }),
  'wallet.import': method<WalletView>()({
    input: z.object({
      privateKey: z.string().optional(),
      keystoreJson: z.string().max(100_000).optional(),
      keystorePassword: z.string().optional(),
      passphrase: z.string().min(1),
      /**
       * The person chose to replace a wallet of another address already set up (its keystore is kept in
       * backups/). Without it such an import is refused with `wallet_exists`, naming both addresses.
       */
      replace: z.boolean().optional(),
    }),
    reads: [],
    changes: ['wallet'],
  }),
  'wallet.unlock': method<WalletView>()({
    input: z.object({ passphrase: z.string().min(1) }),
    reads: [],
    changes: ['wallet'],
  }),
  /** A key for this run only (the CLI's --key-file): used to sign, never written anywhere. */
  'wallet.useSessionKey': method<WalletView>()({
    input: z.object({ privateKey: z.string().min(1) }),
    reads: [],
    changes: ['wallet'],
  }),
  'wallet.lock': method<WalletView>()({
    input: z.object({}),
    reads: [],
    changes: ['wallet'],
  }),
  'wallet.useExternal': method<WalletView>()({
    input: z.object({ address: z.string().regex(/^0x[0-9a-fA-F]{40}$/) }),
    reads: [],
    changes: ['wallet'],
  }),
  /** The connected wallet is gone: core stops building payments for its address. */
  'wallet.forgetExternal': method<WalletView>()({
    input: z.object({}),
    reads: [],
    changes: ['wallet'],
  }),
};
