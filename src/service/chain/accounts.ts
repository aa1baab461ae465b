/** The well-known anvil development accounts (public test keys, worthless on any real chain). */
import { mnemonicToAccount } from 'viem/accounts';
import { toHex, type Hex } from 'viem';

const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

export function anvilDevKey(index: number): Hex {
  const privateKey = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index }).getHdKey().privateKey;
  if (!privateKey) throw new Error(`cannot derive anvil dev key ${index}`);
  return toHex(privateKey);
}

/** Account roles on the demo chain: who deploys and settles, who is paid, who buys. */
export const ACCOUNT_INDEX = { facilitator: 0, payee: 1, firstBuyer: 2 } as const;
