/**
 * What both shells do around core's start in demo mode: make sure the data folder holds no wallet but the
 * demo's, then make the demo wallet ready to buy with. The key comes from the local demo chain (a well-known
 * anvil key), never from a real wallet, and a wallet found in the folder is never replaced unless the person
 * chose to (npm start's --wallet demo), and then it is kept in backups/.
 */
import { existsSync, readdirSync } from 'node:fs';
import { privateKeyToAccount } from 'viem/accounts';
import type { DeskCore, SecretVault } from '../core';
import type { CoreThread } from './core-thread';
import { DeskError } from '../core/base/errors';
import { backupsFolder } from '../core/db/backups-folder';
import { folderWallet, setFolderWalletAside } from '../core/wallet/folder-wallet';

export const DEMO_PASSPHRASE = 'intel-desk-demo';

/** What the demo does about a folder whose wallet is not its own (npm start's --wallet). */
export type DemoWalletChoice = 'imported' | 'demo';

/** Whether the demo's own keystore was kept in backups/ when an import replaced it: the folder was the demo's. */
function demoKeystoreKept(dataDir: string, demoAddress: string): boolean {
  const folder = backupsFolder(dataDir);
  return (
    existsSync(folder) &&
    readdirSync(folder).some((name) => name.startsWith(`wallet-${demoAddress}-`) && name.endsWith('.json'))
  );
}

function foreignWallet(dataDir: string, found: string, demoAddress: string): DeskError {
  const replaced = demoKeystoreKept(dataDir, demoAddress);
  const what = replaced
    ? `The demo wallet (${demoAddress}) in ${dataDir} was replaced by an imported one (${found}); the demo's keystore is kept in ${backupsFolder(dataDir)}.`
    : `${dataDir} holds a wallet that is not the demo's (${found}).`;
  return new DeskError(
    'foreign_wallet',
    `${what} The demo never replaces a wallet by itself, so nothing was changed, and the library is untouched. To go on with this folder and its library: \`npm start -- --wallet imported\` uses the imported wallet (unlock it with its passphrase in Settings; on the demo chain it pays only with what it holds there), or \`npm start -- --wallet demo\` restores the demo wallet (the imported keystore is kept in ${backupsFolder(dataDir)}).`,
    'wallet',
    { dataDir },
  );
}

/**
 * Runs before core opens the folder, so a folder holding another wallet is refused before the demo changes
 * anything in it (its service URL, its reconciliation against the demo chain), unless the person chose:
 * 'imported' keeps that wallet (the demo then sets up none), 'demo' keeps it in backups/ and lets the demo
 * set up its own again. Returns what was done, for npm start to say.
 */
export function checkDemoDataDir(
  dataDir: string,
  demoKey: `0x${string}`,
  vault?: SecretVault,
  choice?: DemoWalletChoice,
): 'demo' | 'empty' | 'kept imported' | 'restored demo' {
  const demoAddress = privateKeyToAccount(demoKey).address;
  const held = folderWallet(dataDir, vault);
  const found = 'address' in held ? held.address : held.unreadable;
  if (found === null) return 'empty';
  if (found === demoAddress) return 'demo';
  if (choice === 'imported') return 'kept imported';
  if (choice === 'demo') {
    setFolderWalletAside(dataDir, found);
    return 'restored demo';
  }
  throw foreignWallet(dataDir, /^0x[0-9a-fA-F]{40}$/.test(found) ? `address ${found}` : found, demoAddress);
}

export async function prepareDemoWallet(
  core: Pick<DeskCore | CoreThread, 'handlers'>,
  key: `0x${string}`,
  dataDir: string,
  passphrase = DEMO_PASSPHRASE,
  choice?: DemoWalletChoice,
) {
  const demoAddress = privateKeyToAccount(key).address;
  const status = await core.handlers['wallet.status']({});
  if (status.kind === null) {
    await core.handlers['wallet.import']({ privateKey: key, passphrase });
  } else if (status.address !== demoAddress) {
    // The person chose the wallet they imported: they unlock it themselves in Settings.
    if (choice === 'imported') return;
    throw foreignWallet(dataDir, `address ${status.address ?? 'unknown'}`, demoAddress);
  }
  try {
    await core.handlers['wallet.unlock']({ passphrase });
  } catch {
    // The demo's key under a passphrase of the person's own: theirs to keep, unless they chose the demo's.
    if (choice === 'imported') return;
    if (choice !== 'demo')
      throw foreignWallet(dataDir, 'the demo key sealed with another passphrase', demoAddress);
    await core.handlers['wallet.import']({ privateKey: key, passphrase, replace: true });
    await core.handlers['wallet.unlock']({ passphrase });
  }
}
