/**
 * What both shells do around core's start in demo mode: make sure the data folder holds no wallet but the
 * demo's, then make the demo wallet ready to buy with. The key comes from the local demo chain (a well-known
 * anvil key), never from a real wallet, and a wallet found in the folder is never replaced.
 */
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import type { DeskCore, SecretVault } from '../core';
import type { CoreThread } from './core-thread';
import { DeskError } from '../core/errors';
import { DeskWallet } from '../core/wallet/wallet';

export const DEMO_PASSPHRASE = 'intel-desk-demo';

function foreignWallet(dataDir: string, found: string): DeskError {
  return new DeskError(
    'foreign_wallet',
    `${dataDir} holds a wallet that is not the demo's (${found}), and the demo never replaces a wallet; it was left untouched. Start the demo with its own data folder (npm start without --data-dir) or an empty one.`,
    'wallet',
    { dataDir },
  );
}

/**
 * Runs before core opens the folder, so a real desk's folder is refused before the demo changes anything in
 * it (its service URL, its reconciliation against the demo chain).
 */
export function checkDemoDataDir(dataDir: string, demoKey: `0x${string}`, vault?: SecretVault): void {
  const wallet = new DeskWallet(path.join(dataDir, 'wallet.json'), vault);
  let address: string | null;
  try {
    address = wallet.address();
  } catch (error) {
    throw foreignWallet(dataDir, error instanceof DeskError ? error.message : 'an unreadable wallet file');
  }
  if (address !== null && address !== privateKeyToAccount(demoKey).address)
    throw foreignWallet(dataDir, `address ${address}`);
}

export async function prepareDemoWallet(
  core: Pick<DeskCore | CoreThread, 'handlers'>,
  key: `0x${string}`,
  dataDir: string,
  passphrase = DEMO_PASSPHRASE,
) {
  const status = await core.handlers['wallet.status']({});
  if (status.kind === null) {
    await core.handlers['wallet.import']({ privateKey: key, passphrase });
  } else if (status.address !== privateKeyToAccount(key).address) {
    throw foreignWallet(dataDir, `address ${status.address ?? 'unknown'}`);
  }
  try {
    await core.handlers['wallet.unlock']({ passphrase });
  } catch {
    // The demo's key under a passphrase of the person's own: theirs to keep.
    throw foreignWallet(dataDir, 'the demo key sealed with another passphrase');
  }
}
