/**
 * The wallet locks when the person walks away: the OS lock screen and sleep lock an unlocked keystore through
 * core's own wallet.lock, so the next purchase asks for the passphrase again (decision 0029).
 */
import { powerMonitor } from 'electron';
import type { DispatchResult } from '../src/host/dispatch';
import type { ShellLog } from './logs';

export function lockWalletWithTheScreen(
  call: (method: string, input: unknown) => Promise<DispatchResult>,
  log: ShellLog,
): void {
  const lock = (why: string) => {
    void call('wallet.lock', {})
      .then((result) => {
        if (result.ok) log.info(`The wallet was locked: ${why}.`);
        else log.error(`Locking the wallet (${why}) failed: ${result.error.message}`);
      })
      .catch((error: unknown) => log.error(`Locking the wallet (${why}) failed`, error));
  };
  powerMonitor.on('lock-screen', () => lock('the screen was locked'));
  powerMonitor.on('suspend', () => lock('the computer is going to sleep'));
}
