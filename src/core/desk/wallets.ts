/** The desk's wallet, and the timer that locks it after the idle time chosen in Settings. */
import type { DeskEvents } from '../base/events';
import type { SettingsStore } from '../settings/settings';
import { DeskWallet } from '../wallet/wallet';
import { walletFileIn } from '../wallet/folder-wallet';
import type { DeskCoreOptions } from './desk-options';

export class DeskWallets {
  readonly wallet: DeskWallet;
  private autoLockTimer: NodeJS.Timeout | null = null;

  constructor(options: DeskCoreOptions, settings: SettingsStore, events: DeskEvents) {
    this.wallet = new DeskWallet(
      walletFileIn(options.dataDir),
      options.vault,
      options.walletKdfCost ?? 'default',
      events,
      options.autoLockWallet
        ? { idleMs: () => settings.get().autoLockMinutes * 60_000, now: options.now ?? (() => Date.now()) }
        : null,
    );
    if (options.autoLockWallet) {
      this.autoLockTimer = setInterval(() => this.wallet.lockIfIdle(), options.autoLockCheckMs ?? 30_000);
      this.autoLockTimer.unref();
    }
  }

  close(): void {
    if (this.autoLockTimer) clearInterval(this.autoLockTimer);
  }
}
