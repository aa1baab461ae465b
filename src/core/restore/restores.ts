/**
 * Restoring purchases for one desk (library.restorePurchases): with a key the desk holds it signs in by itself;
 * with a wallet in the window it waits for that wallet's signature, keeping each waiting restore by the message
 * it showed, so two windows (or a double click) each go on with their own challenge.
 */
import type { RestorePurchasesStep } from '../../shared/rpc';
import type { ServiceClient } from '../client/service-client';
import { DeskError } from '../base/errors';
import type { DeskWallet } from '../wallet/wallet';
import type { PurchaseRestore } from './restore-purchases';
import type { RestoreDeps } from './restored-purchase';

export interface RestoresDeps extends RestoreDeps {
  wallet: DeskWallet;
  /** A client for the service now selected. */
  client: () => ServiceClient;
}

/** A window closed mid-restore leaves its entry: only the newest few are kept. */
const MAX_WAITING = 8;

export class PurchaseRestores {
  private readonly waiting = new Map<string, PurchaseRestore>();

  constructor(private readonly deps: RestoresDeps) {}

  /** Starts a restore, or goes on with the one that showed `signed.message`. */
  async step(
    signed: { message: string; signature: `0x${string}` } | undefined,
  ): Promise<RestorePurchasesStep> {
    // Loaded on first use: most runs never restore.
    const { PurchaseRestore, restoreWithKey } = await import('./restore-purchases');
    const { wallet } = this.deps;
    const address = wallet.address();
    const kind = wallet.kind();
    if (address === null || kind === null)
      throw new DeskError(
        'no_wallet',
        'Set up or connect the wallet that bought the reports first.',
        'wallet',
      );
    if (signed !== undefined) {
      const restore = this.waiting.get(signed.message);
      if (!restore || restore.address !== address)
        throw new DeskError(
          'restore_not_started',
          'No sign-in is waiting for this signature; start again.',
          'usage',
        );
      this.waiting.delete(signed.message);
      const next = await restore.signed(signed.signature);
      if (next === null) return { status: 'done', summary: restore.result() };
      return this.awaitSignature(restore, next.message, address);
    }
    const { db, ledger, snapshots, deliver, now, chain } = this.deps;
    const restore = new PurchaseRestore(
      this.deps.client(),
      { db, ledger, snapshots, deliver, now, chain },
      address,
    );
    const account = kind === 'keystore' ? wallet.signingAccount() : null;
    if (kind === 'keystore' && !account)
      throw new DeskError('wallet_locked', 'Unlock the wallet with its passphrase first.', 'wallet');
    if (account) {
      const summary = await restoreWithKey(restore, (message) => account.signMessage({ message }));
      return { status: 'done', summary };
    }
    const first = await restore.begin();
    return this.awaitSignature(restore, first.message, address);
  }

  private awaitSignature(restore: PurchaseRestore, message: string, address: string): RestorePurchasesStep {
    if (this.waiting.size >= MAX_WAITING) this.waiting.delete(this.waiting.keys().next().value ?? '');
    this.waiting.set(message, restore);
    return { status: 'sign', message, address };
  }
}
