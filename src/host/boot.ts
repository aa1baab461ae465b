/**
 * What both shells do after core starts: in demo mode, make the demo wallet ready to buy with. The key
 * comes from the local demo chain (a well-known anvil key), never from a real wallet.
 */
import type { DeskCore } from '../core';
import type { CoreThread } from './core-thread';

export const DEMO_PASSPHRASE = 'intel-desk-demo';

export async function prepareDemoWallet(
  core: Pick<DeskCore | CoreThread, 'handlers' | 'wallet'>,
  key: `0x${string}`,
  passphrase = DEMO_PASSPHRASE,
) {
  const status = await core.handlers['wallet.status']({});
  if (status.kind === 'keystore') {
    try {
      await core.wallet.unlock(passphrase);
      return;
    } catch {
      // A keystore sealed with another passphrase belongs to the person; the demo key replaces it only
      // when the demo passphrase does not open it, which is what a fresh demo data dir looks like anyway.
    }
  }
  await core.wallet.importPrivateKey(key, passphrase);
  await core.wallet.unlock(passphrase);
}
